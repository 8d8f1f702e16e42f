// paylink embed: <script src="https://PAYLINK/embed.js" data-paylink-link="SLUG" async></script>
// Puts the payment link's widget in an iframe right after this tag (or in data-paylink-target),
// sizes the frame to its content and re-dispatches the widget's events on the host element as
// bubbling CustomEvents (paylink:ready, paylink:customer-created, paylink:invoice-created,
// paylink:paid, paylink:error). Only messages from the widget's origin and its own frame count.
// Options: data-paylink-locale, data-paylink-screens, data-paylink-theme-*, data-paylink-prefill-*,
// data-paylink-options (JSON); see the README, "Embed paylink". Plain JS, no build step.
(function () {
  var script = document.currentScript;
  if (!script) return;
  var origin = new URL(script.src).origin;
  var d = script.dataset;
  var slug = d.paylinkLink;
  if (!slug) return console.error("paylink: data-paylink-link is missing");
  var host = d.paylinkTarget && document.querySelector(d.paylinkTarget);
  if (!host) {
    host = document.createElement("div");
    script.after(host);
  }

  var options = {};
  try {
    if (d.paylinkOptions) options = JSON.parse(d.paylinkOptions);
  } catch (e) {
    console.error("paylink: data-paylink-options is not JSON");
  }
  var theme = (options.theme = options.theme || {});
  var prefill = (options.prefill = options.prefill || {});
  for (var key in d) {
    var m = /^paylink(Theme|Prefill)(.+)$/.exec(key);
    if (m) {
      var name = m[2].charAt(0).toLowerCase() + m[2].slice(1);
      (m[1] === "Theme" ? theme : prefill)[name] = d[key];
    }
  }
  if (d.paylinkLocale) options.locale = d.paylinkLocale;
  if (d.paylinkScreens) options.screens = d.paylinkScreens;
  var locale = /^en/i.test(options.locale || "") ? "en" : "pt-BR";

  var frame = document.createElement("iframe");
  frame.title = d.paylinkTitle || (locale === "en" ? "Payment" : "Pagamento");
  frame.lang = locale;
  frame.allow = "clipboard-write";
  // Until the widget says it is ready: a skeleton of the form's size, never a 2 px or clipped frame.
  frame.style.cssText =
    "display:block;width:100%;border:0;height:24rem;min-height:24rem;border-radius:8px;" +
    "background:linear-gradient(90deg,#eef1f0,#f7f9f8,#eef1f0);background-size:200% 100%";
  // The options travel in the fragment: never sent to a server, never in a Referer.
  frame.src =
    origin + "/l/" + encodeURIComponent(slug) + "?embed=1&parent=" + encodeURIComponent(location.origin) +
    "#" + encodeURIComponent(JSON.stringify(options));
  host.append(frame);

  var ready = false;
  addEventListener("message", function (e) {
    var m = e.data;
    if (e.origin !== origin || e.source !== frame.contentWindow || !m || m.source !== "paylink") return;
    if (m.type === "resize") {
      frame.style.height = Math.ceil(m.height) + "px";
      if (ready) frame.style.minHeight = "0";
      return;
    }
    if (!/^paylink:/.test(m.type)) return;
    if (m.type === "paylink:ready" || m.type === "paylink:error") {
      ready = true;
      frame.style.minHeight = "0";
      frame.style.background = "none";
    }
    host.dispatchEvent(new CustomEvent(m.type, { detail: m.detail, bubbles: true, composed: true }));
  });

  // host.paylinkOptions({locale, theme}): change them live (sent to the widget's origin only).
  host.paylinkOptions = function (o) {
    frame.contentWindow.postMessage({ source: "paylink", type: "options", options: o }, origin);
  };
})();
