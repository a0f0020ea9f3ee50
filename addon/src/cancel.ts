// Cancelling (docs/protocol.md, "Cancelling"; mirror of the Python core's sansio/cancel.py):
// `scriptevent mcbews:cancel <id> [<id> ...]` says the bridge no longer waits for those
// requests or text responses. The runtime then drops what it holds for them (a kept answer, a
// job's work, chunk lines not yet sent, a half-received text) and remembers the ids for a while,
// so an answer that finishes after its cancel is dropped rather than kept. Pure: time is the
// tick passed in.
import { CANCEL_IDS_KEPT } from "./wire.js";
import { isPullId } from "./pull.js";

export interface CancelIds {
  ids: string[];
  /** Words of the message that are not ids (1-64 letters and digits): logged, never acted on. */
  refused: string[];
}

/** The ids a cancel notice names, in order, each once. */
export function readCancelIds(message: string): CancelIds {
  const ids: string[] = [];
  const refused: string[] = [];
  for (const word of message.split(/\s+/)) {
    if (word === "") continue;
    if (!isPullId(word)) refused.push(word.slice(0, 80));
    else if (!ids.includes(word)) ids.push(word);
  }
  return { ids, refused };
}

/** Cancelled ids, the newest CANCEL_IDS_KEPT of them, each for `ttlTicks`. */
export class CancelledIds {
  private readonly since = new Map<string, number>();

  constructor(
    private readonly ttlTicks: number,
    private readonly capacity: number = CANCEL_IDS_KEPT,
  ) {}

  get size(): number {
    return this.since.size;
  }

  add(id: string, tick: number): void {
    this.since.delete(id);
    this.since.set(id, tick);
    while (this.since.size > this.capacity) {
      const oldest = this.since.keys().next();
      if (oldest.done === true) break;
      this.since.delete(oldest.value);
    }
  }

  has(id: string): boolean {
    return this.since.has(id);
  }

  expire(tick: number): void {
    for (const [id, at] of this.since) {
      if (tick - at >= this.ttlTicks) this.since.delete(id);
    }
  }
}
