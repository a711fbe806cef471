// The app's root as a reader and a screen reader meet it, node by node, for comparing the page
// the build rendered with the one the app draws over it (decisions 43 and 44); and the layout
// shift the takeover causes.

/**
 * The app's root as nodes in document order: each element with its attributes sorted and its
 * form state (a select's value, a box's checked, a fold's open), each text with its spaces
 * collapsed. What a reader sees and a screen reader reads, without the order of attributes.
 */
export function snapshot(page) {
  return page.evaluate(() => {
    const out = [];
    // Text runs as a parser reads them: adjacent text nodes (the app makes one per piece, a
    // parsed page has one) are one text.
    let text = '';
    const flush = () => {
      const words = text.replace(/\s+/g, ' ').trim();
      if (words) out.push(`"${words}"`);
      text = '';
    };
    const walk = (node) => {
      if (node.nodeType === Node.TEXT_NODE) {
        text += node.textContent;
        return;
      }
      if (node.nodeType !== Node.ELEMENT_NODE) return;
      flush();
      // A form control's value is its state (below): the build can only write it as the
      // attribute, the app sets the property.
      const formValue = (a) =>
        ['value', 'checked', 'selected'].includes(a.name) &&
        (node instanceof HTMLInputElement || node instanceof HTMLSelectElement || node instanceof HTMLTextAreaElement || node instanceof HTMLOptionElement);
      // A link is where it leads: the build writes it from the page's path, the app from the
      // path the address bar shows by then (the root's playground writes its scenario's).
      const written = (a) => (a.name === 'href' && node instanceof HTMLAnchorElement ? `href→${node.href}` : `${a.name}=${a.value}`);
      const attributes = [...node.attributes].filter((a) => !formValue(a)).map(written).sort();
      const state = [];
      if (node instanceof HTMLSelectElement || node instanceof HTMLInputElement) state.push(`value:${node.value}`);
      if (node instanceof HTMLInputElement) state.push(`checked:${node.checked}`);
      if (node instanceof HTMLOptionElement) state.push(`selected:${node.selected}`);
      if (node instanceof HTMLDetailsElement) state.push(`open:${node.open}`);
      out.push(`<${node.localName} ${attributes.join(' ')} ${state.join(' ')}>`);
      node.childNodes.forEach(walk);
      flush();
      out.push(`</${node.localName}>`);
    };
    walk(document.getElementById('lockstep-root'));
    return out;
  });
}

/** The first place two snapshots differ, with a little of what comes before, for the message. */
export function firstDifference(built, drawn) {
  const at = built.findIndex((node, i) => node !== drawn[i]);
  const index = at === -1 ? Math.min(built.length, drawn.length) : at;
  return [
    `node ${index} of ${built.length} (built) / ${drawn.length} (drawn)`,
    `before: ${built.slice(Math.max(0, index - 3), index).join(' ')}`,
    `built:  ${built.slice(index, index + 3).join(' ')}`,
    `drawn:  ${drawn.slice(index, index + 3).join(' ')}`,
  ].join('\n');
}

/** Makes every page of `context` sum its layout shifts, as cumulative layout shift counts them. */
export function countLayoutShift(context) {
  return context.addInitScript(() => {
    window.lockstepShift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.lockstepShift += entry.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The layout shift of `page` so far (`countLayoutShift`), two frames on: any shift reported. */
export function layoutShift(page) {
  return page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(window.lockstepShift)))),
  );
}
