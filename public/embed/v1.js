/*!
 * Foliosign embed script, v1 — https://github.com/foliosign (served by every Foliosign instance at /embed/v1.js)
 *
 * SPDX-License-Identifier: MIT
 * Copyright (c) 2026 the Foliosign contributors
 *
 * Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated
 * documentation files (the "Software"), to deal in the Software without restriction, including without limitation
 * the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and
 * to permit persons to whom the Software is furnished to do so, subject to the following conditions:
 *
 * The above copyright notice and this permission notice shall be included in all copies or substantial portions of
 * the Software.
 *
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO
 * THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
 * AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF
 * CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS
 * IN THE SOFTWARE.
 *
 * Usage (the URL comes from POST /api/v1/packages/{packageId}/signing-url with `embed: { origin }`, made by your
 * server: it is single use and valid 5 minutes):
 *
 *   <script src="https://sign.example.com/embed/v1.js"></script>
 *   const frame = Foliosign.mount(document.getElementById("signing"), {
 *     url,
 *     onEvent(event) { // { type, packageId, sessionId, ... }
 *       if (event.type === "completed") location.assign("/thanks");
 *     },
 *   });
 *   // frame.unmount() removes the frame and stops listening.
 *
 * Events: "ready" ({ state }), "field-signed" ({ fieldId }), "completed" (sent after the server committed the
 * signature), "declined", "error" ({ message }). Only messages from the mounted frame and from the URL's own
 * origin are passed on; they never carry a token.
 */
(function (global) {
  "use strict";

  function mount(element, options) {
    if (!element || typeof element.appendChild !== "function") throw new TypeError("Foliosign.mount: element must be a DOM element");
    if (!options || typeof options.url !== "string") throw new TypeError("Foliosign.mount: options.url is required");
    var url = new URL(options.url, global.location.href);
    var origin = url.origin;
    var onEvent = typeof options.onEvent === "function" ? options.onEvent : function () {};

    var iframe = global.document.createElement("iframe");
    iframe.src = url.href;
    iframe.title = options.title || "Sign the document";
    iframe.allow = "clipboard-write";
    iframe.referrerPolicy = "no-referrer";
    iframe.style.border = "0";
    iframe.style.width = "100%";
    iframe.style.height = options.height || "720px";
    iframe.style.display = "block";

    function onMessage(event) {
      if (event.source !== iframe.contentWindow || event.origin !== origin) return;
      var data = event.data;
      if (!data || data.source !== "foliosign" || typeof data.type !== "string") return;
      var copy = {};
      for (var k in data) if (Object.prototype.hasOwnProperty.call(data, k) && k !== "source" && k !== "version") copy[k] = data[k];
      try {
        onEvent(copy);
      } catch (err) {
        setTimeout(function () {
          throw err;
        });
      }
    }

    global.addEventListener("message", onMessage);
    element.appendChild(iframe);
    return {
      iframe: iframe,
      unmount: function () {
        global.removeEventListener("message", onMessage);
        if (iframe.parentNode) iframe.parentNode.removeChild(iframe);
      },
    };
  }

  global.Foliosign = { version: 1, mount: mount };
})(window);
