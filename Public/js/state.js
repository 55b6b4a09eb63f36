/* GesturePad: the page state — plain data about what the page did (status, every message sent
 * and received, batches, what the live view drew, …), bounded. The modules write into it; the
 * browser tests read it through the test hook below. No DOM. */

/** How many entries each list keeps (for tests and debugging). */
const KEEP = 1000;

/** Appends to a bounded list, dropping the oldest entries beyond KEEP. */
export function record(list, item) {
  list.push(item);
  if (list.length > KEEP) list.splice(0, list.length - KEEP);
}

let current = null;

/** A fresh page state for a page of the given role ('touchpad' or 'observer'). */
export function createPageState(role) {
  current = {
    role, status: 'connecting', detail: '', session: null, host: null, run: null, config: null, control: null, rtt: null,
    device: null,
    sent: [], received: [], batches: [], batchesSent: 0, framesSent: 0, connects: 0, errors: [], closes: [],
    // While the link is backed up (batcher.js): how often the queue was held, the moves merged
    // into a newer one, the most moves of one pointer in a held queue; the probes sent.
    backlog: { held: 0, merged: 0, most: 0, probes: 0 },
    // Under the test hook only: each connection's exchanged key and transcript (proof.js), so a
    // test can open what the page sealed on the wire — which nobody else can.
    exchanges: []
  };
  return current;
}

/** The page state of this page, for a look from the DevTools console without the test hook:
 * `(await import('/js/state.js')).pageState()`. */
export function pageState() { return current; }

/**
 * The test hook, the page's only global: when a test set `window.__gesturepadTest = true`
 * before the page's scripts ran (the browser tests do, with CDP
 * `Page.addScriptToEvaluateOnNewDocument`), the page state is published as
 * `window.gesturepad`. A normal page publishes nothing.
 */
export function exposeForTests(state) {
  if (globalThis.__gesturepadTest === true) globalThis.gesturepad = state;
}
