/*
 * Lockstep's host script: one <script> on any page turns each
 *   <div data-lockstep="s2-gc-pause-fenced" data-at="12" data-controls="transport"></div>
 * into a live embed of the scenario — a lazy-loaded iframe of the app's `#embed` view — and keeps
 * every Lockstep iframe on the page (its own, and plain ones pasted from "Copy embed code") as
 * tall as its content.
 *
 * The app is the directory this script is served from. A height is taken only from a message
 * whose origin is the app's, whose source is one of the page's Lockstep iframes, and whose data
 * is exactly { type: "lockstep:embed-size", version: 1, height: <whole CSS px> }; anything else
 * is ignored. Attributes become the embed's parameters (data-lockstep: a built-in scenario's id,
 * empty for one of the author's own: a file named by data-src, or JSON inline in a
 * <script type="application/json"> inside the div); the embed checks them and shows what is wrong.
 * Plain JavaScript, no dependencies. It touches nothing on the page but those divs and the
 * heights of those iframes.
 */
(function () {
  'use strict';

  var SIZE_MESSAGE = 'lockstep:embed-size';
  var DEFAULT_HEIGHT = 420;
  // Far above any embed; a height past it is a broken message, not a layout.
  var MAX_HEIGHT = 100000;
  // data-<name> → <name>= in the embed's fragment, after the scenario, in this order.
  var PARAMETERS = ['learn', 'step', 'seed', 'fencing', 'log', 'at', 'compare', 'from', 'to',
    'controls', 'autoplay', 'theme', 'caption'];

  var script = document.currentScript || document.querySelector('script[src$="embed.js"]');
  if (!script || !script.src) return;
  var app = new URL('./', script.src);

  function base64url(bytes) {
    var binary = '';
    for (var i = 0; i < bytes.length; i += 0x8000) {
      binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    }
    return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }

  /** The embed's address for `div`; `scenario`: the bytes of the author's own scenario, or null. */
  function embedAddress(div, scenario) {
    var parts = ['embed'];
    var id = div.getAttribute('data-lockstep');
    if (id) parts.push('s=' + encodeURIComponent(id));
    if (scenario) parts.push('scenario=' + base64url(scenario));
    PARAMETERS.forEach(function (name) {
      var value = div.getAttribute('data-' + name);
      if (value !== null) parts.push(name + '=' + encodeURIComponent(value));
    });
    return app.href + '#' + parts.join('&');
  }

  function titleOf(div) {
    var what = div.getAttribute('data-lockstep') ||
      (div.getAttribute('data-learn') ? 'lesson ' + div.getAttribute('data-learn') : 'a scenario');
    return div.getAttribute('data-title') || 'Lockstep simulation: ' + what;
  }

  function placeholderHeight(div) {
    var height = Number(div.getAttribute('data-height'));
    return Number.isInteger(height) && height > 0 && height <= MAX_HEIGHT ? height : DEFAULT_HEIGHT;
  }

  function showFrame(div, scenario) {
    var iframe = document.createElement('iframe');
    iframe.setAttribute('loading', 'lazy');
    iframe.setAttribute('title', titleOf(div));
    // frame-sizing lets a browser that supports it size the frame by itself; the height
    // attribute is the placeholder until the first size message, and what the messages set.
    iframe.setAttribute('style', 'frame-sizing: content-height; display: block; width: 100%; border: 0');
    iframe.setAttribute('height', String(placeholderHeight(div)));
    iframe.setAttribute('src', embedAddress(div, scenario));
    div.textContent = '';
    div.appendChild(iframe);
  }

  function showProblem(div, text) {
    var problem = document.createElement('p');
    problem.className = 'lockstep-problem';
    problem.textContent = text;
    div.textContent = '';
    div.appendChild(problem);
  }

  function mount(div) {
    if (div.hasAttribute('data-lockstep-mounted')) return;
    div.setAttribute('data-lockstep-mounted', '');
    var inline = div.querySelector('script[type="application/json"]');
    var file = div.getAttribute('data-src');
    if (inline) {
      showFrame(div, new TextEncoder().encode(inline.textContent));
    } else if (file) {
      // Bytes, not text: the embed reads them as an import does, and says where they are not UTF-8.
      fetch(new URL(file, document.baseURI))
        .then(function (response) {
          if (!response.ok) throw new Error('HTTP ' + response.status);
          return response.arrayBuffer();
        })
        .then(function (bytes) { showFrame(div, new Uint8Array(bytes)); })
        .catch(function (error) {
          showProblem(div, 'Lockstep: the scenario file ' + file + ' could not be loaded (' + error.message + ').');
        });
    } else {
      showFrame(div, null);
    }
  }

  /** The height a size message asks for, or null unless it has exactly the documented shape. */
  function requestedHeight(data) {
    if (data === null || typeof data !== 'object' || Object.getPrototypeOf(data) !== Object.prototype) return null;
    if (Object.keys(data).sort().join() !== 'height,type,version') return null;
    if (data.type !== SIZE_MESSAGE || data.version !== 1) return null;
    var height = data.height;
    return Number.isInteger(height) && height > 0 && height <= MAX_HEIGHT ? height : null;
  }

  /** Whether `iframe` shows this script's app (made here, or a plain iframe pasted by hand). */
  function showsApp(iframe) {
    var address;
    try {
      address = new URL(iframe.getAttribute('src') || '', document.baseURI);
    } catch (e) {
      return false;
    }
    return address.origin === app.origin &&
      (address.pathname === app.pathname || address.pathname === app.pathname + 'index.html');
  }

  window.addEventListener('message', function (event) {
    if (event.origin !== app.origin) return;
    var height = requestedHeight(event.data);
    if (height === null) return;
    var frames = document.getElementsByTagName('iframe');
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].contentWindow === event.source && showsApp(frames[i])) {
        frames[i].setAttribute('height', String(height));
        return;
      }
    }
  });

  function mountAll() {
    Array.prototype.forEach.call(document.querySelectorAll('div[data-lockstep]'), mount);
  }
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', mountAll);
  } else {
    mountAll();
  }
})();
