// The merchant's event log: every paylink:* event that reaches `document` (they bubble from the
// widget's host element) is listed in #events and kept in window.paylinkEvents (read by the tests).
window.paylinkEvents = [];
for (const type of ["paylink:ready", "paylink:customer-created", "paylink:invoice-created", "paylink:paid", "paylink:error"]) {
  document.addEventListener(type, (e) => {
    window.paylinkEvents.push({ type, detail: e.detail, target: e.target.id || e.target.tagName });
    const li = document.createElement("li");
    li.textContent = `${type} ${JSON.stringify(e.detail)}`;
    document.getElementById("events").append(li);
  });
}
