// Bredon's pages without a reload: the arrow keys and the step links fetch the page at another
// ply and swap it in, and a game or tournament page listens for changes (Server-Sent Events).
// Everything also works without this file: the links are ordinary links.
"use strict";

(function () {
  var source = null;
  var busy = false; // a page on its way: keys held down wait for it rather than pile up

  function page() { return document.getElementById("page"); }

  function show(url, remember) {
    busy = true;
    return fetch(url, { headers: { Accept: "text/html" } })
      .then(function (response) {
        if (response.status === 429) { return null; } // too fast: stay on this page
        if (!response.ok) { throw new Error(String(response.status)); }
        return response.text();
      })
      .then(function (html) {
        if (html === null) { return; }
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("page");
        if (!fresh) { return; }
        var current = page();
        for (var i = 0; i < fresh.attributes.length; i++) {
          current.setAttribute(fresh.attributes[i].name, fresh.attributes[i].value);
        }
        current.innerHTML = fresh.innerHTML;
        if (remember) { history.replaceState(null, "", url); }
      })
      .catch(function () { window.location.href = url; })
      .finally(function () { busy = false; });
  }

  function step(key) {
    if (busy) { return; }
    var link = page().querySelector('a[data-key="' + key + '"]');
    if (link && link.getAttribute("aria-disabled") !== "true") { show(link.href, true); }
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      event.preventDefault();
      step(event.key);
    }
  });

  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a") : null;
    if (!link || !page().contains(link) || link.hasAttribute("download")) { return; }
    if (link.getAttribute("href").indexOf("?ply=") !== 0) { return; }
    event.preventDefault();
    show(link.href, true);
  });

  function listen() {
    var events = page().getAttribute("data-events");
    if (!events || !window.EventSource) { return; }
    source = new EventSource(events);
    source.addEventListener("change", function () {
      var main = page();
      var atLatest = main.getAttribute("data-ply") === main.getAttribute("data-last");
      // Following the game: show its newest ply; looking back: keep the ply, grow the list.
      show(atLatest ? window.location.pathname : window.location.href, atLatest);
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", listen);
  } else {
    listen();
  }
})();
