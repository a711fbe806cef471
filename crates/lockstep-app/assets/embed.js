/*
 * Lockstep's host script: one <script> on any page turns each
 *   <div data-lockstep="s2-gc-pause-fenced" data-at="12" data-controls="transport"></div>
 * into a live embed of the scenario — an iframe of the app's `#embed` view — and keeps every
 * Lockstep iframe on the page (its own, and plain ones pasted from "Copy embed code") as tall as
 * its content.
 *
 * A built-in scenario's frame shows the document the build rendered for exactly that embed, where
 * there is one (RENDERED): the moment is on screen at once, and the embed's wasm loads only when
 * the reader acts on it. Any other frame opens the app at the embed's address and loads it.
 *
 * The app is the directory this script is served from. Its frames start lazily and one after
 * another: a div gets its frame when it comes near the viewport, and only once the frame started
 * before it has loaded (or has had QUEUE_WAIT_MS to), so the second and later frames find the
 * app's files in the browser's cache instead of downloading them alongside the first. Until its
 * frame has loaded, each div shows a placeholder of the frame's height: the embed's caption, as
 * far as it is known here, and a line saying what is coming.
 *
 * A height is taken only from a message whose origin is the app's, whose source is one of the
 * page's Lockstep iframes, and whose data is exactly
 * { type: "lockstep:embed-size", version: 1, height: <whole CSS px> }; anything else is ignored.
 * Attributes become the embed's parameters (data-lockstep: a built-in scenario's id, empty for
 * one of the author's own: a file named by data-src, or JSON inline in a
 * <script type="application/json"> inside the div, or for a lesson (data-learn) or a recorded
 * real run (data-real)); the embed checks them and shows what is wrong.
 * A frame without its own theme (data-theme) follows the page's: dark or light by the
 * background behind it, given in the frame's name before its first paint and told again
 * ({ type: "lockstep:host-theme", version: 1, theme }) whenever the page switches.
 * Divs the page adds later (a docs site that changes page without reloading) are mounted as
 * they arrive. Plain JavaScript, no dependencies. It touches nothing on the page but those divs
 * and the heights of those iframes.
 */
(function () {
  'use strict';

  var SIZE_MESSAGE = 'lockstep:embed-size';
  // What the host page's colours are, told to each frame without its own data-theme.
  var THEME_MESSAGE = 'lockstep:host-theme';
  // The embeds' documents, by path from the app's directory: `cargo xtask dist` writes the list
  // (crates/lockstep-app/src/render/host_script.rs); a script served as it is has none.
  var RENDERED = [];
  var DEFAULT_HEIGHT = 420;
  // Far above any embed; a height past it is a broken message, not a layout.
  var MAX_HEIGHT = 100000;
  // data-<name> → <name>= in the embed's fragment, after the scenario, in this order.
  var PARAMETERS = ['learn', 'step', 'real', 'seed', 'fencing', 'log', 'at', 'compare', 'from', 'to',
    'controls', 'autoplay', 'theme', 'caption'];
  // frame-sizing lets a browser that supports it size the frame by itself; the height attribute
  // is the placeholder's height until the first size message, and what the messages set.
  var FRAME_STYLE = 'frame-sizing: content-height; display: block; width: 100%; border: 0';
  // How long the next frame waits for one still loading: the app's files load well within it on
  // a fair connection, and a frame that never loads holds the others no longer.
  var QUEUE_WAIT_MS = 8000;
  // How near the viewport a div gets its frame: about where Chromium starts a lazy image.
  var NEAR = '1250px 0px';
  // The placeholder's line saying what is coming.
  var COMING = {
    inView: 'An interactive timeline loads here when you scroll to it.',
    file: 'Loading the scenario file…',
    afterAbove: 'Waiting for the embed above to load; this one follows…',
    afterBelow: 'Waiting for the embed below to load; this one follows…',
    loading: 'Loading an interactive timeline…',
  };

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

  /**
   * `text` with every character but RFC 3986's unreserved ones written %XX: as the app writes
   * a parameter (lockstep_view::link::params::percent_encode), so that the build's list of
   * documents and this script name an embed alike.
   */
  function component(text) {
    return encodeURIComponent(text).replace(/[!'()*]/g, function (c) {
      return '%' + c.charCodeAt(0).toString(16).toUpperCase();
    });
  }

  /**
   * The frame's address for `div`; `scenario`: the bytes of the author's own scenario, or null.
   * A built-in scenario's embed the build rendered (its path in RENDERED) opens its document;
   * any other opens the app at the embed's address.
   */
  function embedAddress(div, scenario) {
    var parts = [];
    var id = div.getAttribute('data-lockstep');
    if (id) parts.push('s=' + component(id));
    if (scenario) parts.push('scenario=' + base64url(scenario));
    var settings = [];
    PARAMETERS.forEach(function (name) {
      var value = div.getAttribute('data-' + name);
      if (value !== null) settings.push(name + '=' + component(value));
    });
    if (id && !scenario) {
      var page = 'embed/' + component(id) + '/' + (settings.length ? settings.join('&') + '/' : '');
      if (RENDERED.indexOf(page) >= 0) return app.href + page;
    }
    return app.href + '#' + ['embed'].concat(parts, settings).join('&');
  }

  function titleOf(div) {
    var what = div.getAttribute('data-lockstep') ||
      (div.getAttribute('data-learn') ? 'lesson ' + div.getAttribute('data-learn') :
        div.getAttribute('data-real') ? 'the recorded run ' + div.getAttribute('data-real') : 'a scenario');
    return div.getAttribute('data-title') || 'Lockstep simulation: ' + what;
  }

  /** The title inside the author's own scenario `bytes`, or null (the embed names any error). */
  function scenarioTitle(bytes) {
    try {
      var title = JSON.parse(new TextDecoder().decode(bytes)).title;
      return typeof title === 'string' && title ? title : null;
    } catch (e) {
      return null;
    }
  }

  /**
   * The caption the embed will show, as far as it is known before it loads: data-caption, else
   * the scenario's title (known here only for the author's own), else the frame's title, else
   * what the div names.
   */
  function captionOf(div, title) {
    var id = div.getAttribute('data-lockstep');
    var learn = div.getAttribute('data-learn');
    var real = div.getAttribute('data-real');
    return div.getAttribute('data-caption') || title || div.getAttribute('data-title') ||
      (learn ? 'Lockstep: lesson ' + learn : real ? 'Lockstep: the recorded run ' + real :
        id ? 'Lockstep: scenario ' + id : 'Lockstep: a scenario of your own');
  }

  /**
   * Whether the page around `element` is dark or light: the first background behind it that
   * covers (its alpha at least a half) by its luminance, else the page's `color-scheme` (the
   * browser's canvas). A docs site's dark mode changes one of these.
   */
  function hostTheme(element) {
    for (var node = element; node && node.nodeType === Node.ELEMENT_NODE; node = node.parentElement) {
      var rgb = /^rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:,? \/? ?([\d.]+))?\)$/.exec(getComputedStyle(node).backgroundColor);
      if (rgb && (rgb[4] === undefined || Number(rgb[4]) >= 0.5)) {
        var luminance = (0.2126 * rgb[1] + 0.7152 * rgb[2] + 0.0722 * rgb[3]) / 255;
        return luminance < 0.5 ? 'dark' : 'light';
      }
    }
    var scheme = getComputedStyle(document.documentElement).colorScheme || '';
    var systemDark = window.matchMedia && matchMedia('(prefers-color-scheme: dark)').matches;
    return /dark/.test(scheme) && (!/light/.test(scheme) || systemDark) ? 'dark' : 'light';
  }

  /** Whether `iframe`'s embed names its own theme, which the host's then leaves alone. */
  function ownTheme(iframe) {
    return /[#&/]theme=(light|dark)(&|\/|$)/.test(iframe.getAttribute('src') || '');
  }

  /** Tells `iframe` the host's theme around it, if it follows the host and that has changed. */
  function tellTheme(iframe) {
    if (ownTheme(iframe) || !iframe.contentWindow) return;
    var theme = hostTheme(iframe.parentElement);
    if (iframe.lockstepTheme === theme) return;
    iframe.lockstepTheme = theme;
    iframe.contentWindow.postMessage({ type: THEME_MESSAGE, version: 1, theme: theme }, app.origin);
  }

  /** Tells every Lockstep frame on the page that follows the host the host's theme, if changed. */
  function tellThemes() {
    var frames = document.getElementsByTagName('iframe');
    for (var i = 0; i < frames.length; i++) {
      if (showsApp(frames[i])) tellTheme(frames[i]);
    }
  }

  function placeholderHeight(div) {
    var height = Number(div.getAttribute('data-height'));
    return Number.isInteger(height) && height > 0 && height <= MAX_HEIGHT ? height : DEFAULT_HEIGHT;
  }

  function paragraph(style, text) {
    var p = document.createElement('p');
    p.setAttribute('style', style);
    p.textContent = text;
    return p;
  }

  /**
   * Fills `div` with its placeholder: a plain box of the frame's height, in the page's own font
   * and colours, with the caption and a line saying what is coming. Returns the embed's record.
   */
  function showPlaceholder(div) {
    var box = document.createElement('div');
    box.className = 'lockstep-placeholder';
    box.setAttribute('style', 'box-sizing: border-box; height: ' + placeholderHeight(div) + 'px; ' +
      'display: flex; flex-direction: column; justify-content: center; gap: 0.4em; padding: 1em; ' +
      'border: 1px solid rgba(128, 128, 128, 0.45); border-radius: 4px; overflow: hidden');
    var caption = paragraph('margin: 0; font-weight: bold', captionOf(div, null));
    var line = paragraph('margin: 0; opacity: 0.8', COMING.inView);
    line.setAttribute('role', 'status');
    box.appendChild(caption);
    box.appendChild(line);
    div.textContent = '';
    div.appendChild(box);
    return { div: div, box: box, caption: caption, line: line, scenario: null, iframe: null };
  }

  function showProblem(div, text) {
    var problem = document.createElement('p');
    problem.className = 'lockstep-problem';
    problem.textContent = text;
    div.textContent = '';
    div.appendChild(problem);
  }

  // Embeds near the viewport waiting for their turn, first come first; the one loading now.
  var queue = [];
  var loading = null;

  /** Starts the next waiting frame unless one is still loading, and says so in the others. */
  function startNext() {
    if (loading === null && queue.length > 0) start(queue.shift());
    queue.forEach(function (embed) {
      var above = loading && (loading.div.compareDocumentPosition(embed.div) & Node.DOCUMENT_POSITION_FOLLOWING);
      embed.line.textContent = above ? COMING.afterAbove : COMING.afterBelow;
    });
  }

  /** Lets the next frame start: `embed` has loaded, or has had its time. */
  function release(embed) {
    if (loading !== embed) return;
    clearTimeout(embed.timer);
    loading = null;
    startNext();
  }

  /**
   * Gives `embed` its frame, laid out at the div's width over the placeholder but not shown,
   * and shows it in the placeholder's stead once it has loaded.
   */
  function start(embed) {
    loading = embed;
    embed.line.textContent = COMING.loading;
    var div = embed.div;
    var iframe = document.createElement('iframe');
    iframe.setAttribute('loading', 'lazy');
    iframe.setAttribute('title', titleOf(div));
    iframe.setAttribute('style', FRAME_STYLE + '; position: absolute; top: 0; left: 0; visibility: hidden');
    iframe.setAttribute('height', String(placeholderHeight(div)));
    iframe.setAttribute('src', embedAddress(div, embed.scenario));
    // The host's theme, for the first paint: the embed's page reads it from its name.
    if (!ownTheme(iframe)) {
      iframe.lockstepTheme = hostTheme(div);
      iframe.name = 'lockstep-host-theme=' + iframe.lockstepTheme;
    }
    var position = div.style.position;
    if (getComputedStyle(div).position === 'static') div.style.position = 'relative';
    // Shown once it has loaded, or sooner: once it has told its height (an embed's document
    // does as soon as it is parsed, and is drawn by then).
    iframe.lockstepShow = function () {
      if (embed.box.parentNode === div) {
        div.removeChild(embed.box);
        div.style.position = position;
        iframe.setAttribute('style', FRAME_STYLE);
      }
    };
    iframe.addEventListener('load', function () {
      iframe.lockstepShow();
      release(embed);
    });
    embed.timer = setTimeout(function () { release(embed); }, QUEUE_WAIT_MS);
    div.appendChild(iframe);
  }

  // Embeds whose div is not near the viewport yet. One observer for them all, so that divs
  // coming near together queue in the page's order.
  var far = [];
  var near = typeof IntersectionObserver === 'function' ? new IntersectionObserver(function (entries) {
    entries.forEach(function (entry) {
      if (!entry.isIntersecting) return;
      near.unobserve(entry.target);
      queue.push(far.splice(far.findIndex(function (embed) { return embed.div === entry.target; }), 1)[0]);
    });
    startNext();
  }, { rootMargin: NEAR }) : null;

  /** Queues `embed` once its div comes near the viewport (at once where that cannot be told). */
  function whenNear(embed) {
    if (near === null) {
      queue.push(embed);
      startNext();
      return;
    }
    far.push(embed);
    near.observe(embed.div);
  }

  function withScenario(embed, bytes) {
    embed.scenario = bytes;
    embed.caption.textContent = captionOf(embed.div, scenarioTitle(bytes));
    whenNear(embed);
  }

  function mount(div) {
    if (div.hasAttribute('data-lockstep-mounted')) return;
    div.setAttribute('data-lockstep-mounted', '');
    var inline = div.querySelector('script[type="application/json"]');
    var file = div.getAttribute('data-src');
    var embed = showPlaceholder(div);
    if (inline) {
      withScenario(embed, new TextEncoder().encode(inline.textContent));
    } else if (file) {
      embed.line.textContent = COMING.file;
      // Bytes, not text: the embed reads them as an import does, and says where they are not UTF-8.
      fetch(new URL(file, document.baseURI))
        .then(function (response) {
          if (!response.ok) throw new Error('HTTP ' + response.status);
          return response.arrayBuffer();
        })
        .then(function (bytes) { withScenario(embed, new Uint8Array(bytes)); })
        .catch(function (error) {
          showProblem(div, 'Lockstep: the scenario file ' + file + ' could not be loaded (' + error.message + ').');
        });
    } else {
      whenNear(embed);
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
    if (address.origin !== app.origin) return false;
    if (address.pathname === app.pathname || address.pathname === app.pathname + 'index.html') return true;
    var path = address.pathname.slice(app.pathname.length).replace(/index\.html$/, '');
    return address.pathname.indexOf(app.pathname) === 0 && RENDERED.indexOf(path) >= 0;
  }

  window.addEventListener('message', function (event) {
    if (event.origin !== app.origin) return;
    var height = requestedHeight(event.data);
    if (height === null) return;
    var frames = document.getElementsByTagName('iframe');
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].contentWindow === event.source && showsApp(frames[i])) {
        frames[i].setAttribute('height', String(height));
        if (frames[i].lockstepShow) frames[i].lockstepShow();
        // A plain iframe pasted by hand hears the host's theme once it has said it is there.
        tellTheme(frames[i]);
        return;
      }
    }
  });

  function mountWithin(root) {
    if (root.matches('div[data-lockstep]')) mount(root);
    Array.prototype.forEach.call(root.querySelectorAll('div[data-lockstep]'), mount);
  }

  /**
   * Mounts the divs the page has, then those it adds later: a docs site that changes page without
   * reloading (a single-page app) adds its embeds after this script has run. Watching starts only
   * once the document is parsed, so a div written in the page is never mounted before the
   * scenario inside it has been read.
   */
  function mountAllAndWatch() {
    mountWithin(document.documentElement);
    if (window.matchMedia) matchMedia('(prefers-color-scheme: dark)').addEventListener('change', tellThemes);
    if (typeof MutationObserver !== 'function') return;
    // A docs site's theme switch changes a class, a style or a data attribute on <html> or <body>.
    var themes = new MutationObserver(tellThemes);
    [document.documentElement, document.body].forEach(function (node) {
      if (node) themes.observe(node, { attributes: true });
    });
    new MutationObserver(function (records) {
      records.forEach(function (record) {
        Array.prototype.forEach.call(record.addedNodes, function (node) {
          if (node.nodeType === Node.ELEMENT_NODE) mountWithin(node);
        });
      });
    }).observe(document.documentElement, { childList: true, subtree: true });
  }
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', mountAllAndWatch);
  } else {
    mountAllAndWatch();
  }
})();
