// Trunk's initializer for the wasm (index.html: `data-initializer` on the rust link). Trunk
// calls these hooks while it fetches and starts the wasm; they only write to the loading line
// that index.html shows before any script runs (`window.lockstepLoading`, defined there), so the
// page says how far the download is, and says plainly when it fails and what to do.

export default function lockstepLoader() {
  const loading = window.lockstepLoading;
  // Trunk counts the bytes received after the browser has unpacked them, against the wasm's
  // size before wasm-opt; `cargo xtask dist` writes the size actually shipped into the page.
  const shipped = Number(document.querySelector('[data-wasm-size]')?.dataset.rawBytes);
  // The page is touched only when the words change (Trunk reports every chunk received), so
  // that the progress line costs no layout work on a slow phone while the wasm arrives.
  let shown = '';
  const show = (text) => {
    if (text === shown) return;
    shown = text;
    loading.progress(text);
  };
  return {
    onProgress: ({ current, total }) => {
      const size = shipped > 0 ? shipped : total;
      if (size > 0 && current < size) {
        show(` ${Math.floor((100 * current) / size)} %`);
      } else if (size > 0) {
        show(' starting it');
      }
    },
    onFailure: (error) => {
      if (typeof WebAssembly !== 'object') {
        loading.noWebAssembly();
        return;
      }
      loading.problem('wasm', [
        'The simulator could not be loaded, so Lockstep cannot start.',
        `What failed: ${describe(error)}.`,
        'Reload the page. If it fails again, check your connection, or open the page in a current Firefox, Chrome, Edge or Safari.',
      ]);
    },
  };
}

/**
 * What went wrong, from whatever the fetch or the compiler threw: its message, with the kind of
 * error where that says more than "Error" (a CompileError, say), and without the empty address
 * of the response Trunk rebuilds around the download.
 */
function describe(error) {
  if (!(error instanceof Error)) return String(error);
  const message = error.message.replace(/ fetching ''$/, '').replace(/\.$/, '');
  return error.name === 'Error' || error.name === 'TypeError' ? message : `${error.name}: ${message}`;
}
