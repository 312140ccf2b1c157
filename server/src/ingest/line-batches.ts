import type { FileReport, LineError } from './import-report.ts';
import type { PreparedLine } from './prepare-lines.ts';
import type { LinePreparer } from './prepare-thread.ts';
import { splitLines, type LinePosition, type LineRun } from './split-lines.ts';

/** Lines read for one batch, sent to be prepared; written in the order they were read. */
export interface LineBatch {
  texts: string[];
  /** The line number of each of `texts`. */
  lines: number[];
  /** Lines the splitter left out (too long, not UTF-8). */
  skipped: LineError[];
  /** Just past the batch's last line: where the file goes on once it is stored. */
  position: LinePosition;
  prepared: Promise<PreparedLine[]>;
}

type OpenBatch = Omit<LineBatch, 'position' | 'prepared'>;

/**
 * A JSON Lines file read into batches of `batchSize` lines, each sent to the preparer as soon as it is
 * full, so the batches waiting to be written are being prepared meanwhile. The file's last batch (empty
 * when the lines ran out exactly at a batch's end) carries the position past the last line. The reading is
 * driven by `fill`, so a caller can read the next file's first batches while the last ones of the file
 * before are still being written, and the preparing threads never wait at a file's end.
 */
export class LineBatches {
  readonly #runs: AsyncIterator<LineRun>;
  readonly #preparer: LinePreparer;
  readonly #batchSize: number;
  readonly #report: FileReport;
  /** Batches sent and not yet taken, oldest first. */
  readonly #ahead: LineBatch[] = [];
  #open: OpenBatch = emptyBatch();
  #position: LinePosition;
  #ended = false;

  constructor(
    bytes: AsyncIterable<Buffer>,
    maxLineBytes: number,
    from: LinePosition | undefined,
    batchSize: number,
    preparer: LinePreparer,
    report: FileReport,
  ) {
    this.#position = from ?? { line: 0, offset: 0 };
    this.#runs = splitLines(bytes, maxLineBytes, this.#position)[Symbol.asyncIterator]();
    this.#preparer = preparer;
    this.#batchSize = batchSize;
    this.#report = report;
    report.lines = this.#position.line;
  }

  /** True once the file's last batch has been sent. */
  get ended(): boolean {
    return this.#ended;
  }

  /** Reads until at least `n` batches wait to be taken, or the file's last one has been sent. */
  async fill(n: number): Promise<void> {
    while (this.#ahead.length < n && !this.#ended) {
      const next = await this.#runs.next();
      if (next.done) {
        this.#send();
        this.#ended = true;
        return;
      }
      this.#take(next.value);
    }
  }

  /** The oldest batch sent, and whether it is the file's last. */
  shift(): { batch: LineBatch; last: boolean } | undefined {
    const batch = this.#ahead.shift();
    return batch && { batch, last: this.#ended && this.#ahead.length === 0 };
  }

  #take(run: LineRun): void {
    for (const [i, line] of run.lines.entries()) {
      const current = run.first + i;
      this.#position = { line: current, offset: run.ends[i] ?? this.#position.offset };
      if (typeof line !== 'string') this.#open.skipped.push({ line: current, message: line.skipped });
      else if (!isBlank(line)) {
        this.#open.texts.push(line);
        this.#open.lines.push(current);
      }
      if (this.#open.texts.length >= this.#batchSize) this.#send();
    }
    this.#report.lines = this.#position.line;
  }

  #send(): void {
    const open = this.#open;
    const prepared = open.texts.length > 0 ? this.#preparer.prepare(open.texts) : Promise.resolve([]);
    // Awaited when its turn to be written comes; until then a failure must not count as unhandled.
    prepared.catch(() => undefined);
    this.#ahead.push({ ...open, position: this.#position, prepared });
    this.#open = emptyBatch();
  }
}

function emptyBatch(): OpenBatch {
  return { texts: [], lines: [], skipped: [] };
}

function isBlank(line: string): boolean {
  return line.length === 0 || line.trim().length === 0;
}
