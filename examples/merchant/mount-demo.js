// Direct mount: the widget in this page's own DOM, no iframe. It calls paylink's proxy
// cross-origin, which must list this page's origin (`paylink serve --allowed-origin`).
import { mount } from "http://127.0.0.1:8080/mount.js";

mount(document.getElementById("checkout"), {
  link: "curso-rust",
  locale: "pt-BR",
  theme: { primary: "#8a3b12", radius: "4px" },
  // What the shop already knows about its logged-in customer, by API field path.
  prefill: { email: "cliente@example.com" },
});
