/** Where an import stands; byte counts are of the files on disk (compressed), which is what is known up front. */
export interface ImportProgress {
  file: string;
  /** 0-based position of `file` among `fileCount` files. */
  fileIndex: number;
  fileCount: number;
  fileBytesRead: number;
  fileBytesTotal: number;
  /** Across all files. */
  bytesRead: number;
  bytesTotal: number;
  /**
   * Of `bytesRead`, those read only to reach where a resumed file continues: they cost little time, so the
   * ETA leaves them out of the rate.
   */
  bytesPassedOver: number;
  /** Time spent passing over those bytes (decompressing up to where a compressed file resumes). */
  passedOverMs: number;
  /** Papers handed to the store so far, across all files. */
  papers: number;
}

// A terminal cannot show more than about ten updates a second usefully.
const MIN_INTERVAL_MS = 100;

/** Accumulates progress and reports it to `onProgress` at most every MIN_INTERVAL_MS, plus once per file end. */
export class ProgressTicker {
  readonly #onProgress: ((progress: ImportProgress) => void) | undefined;
  readonly #now: () => Date;
  readonly #state: ImportProgress;
  #lastEmit = Number.NEGATIVE_INFINITY;
  #lastBytesAt = 0;

  constructor(
    onProgress: ((progress: ImportProgress) => void) | undefined,
    now: () => Date,
    fileCount: number,
    bytesTotal: number,
  ) {
    this.#onProgress = onProgress;
    this.#now = now;
    this.#state = {
      file: '',
      fileIndex: -1,
      fileCount,
      fileBytesRead: 0,
      fileBytesTotal: 0,
      bytesRead: 0,
      bytesTotal,
      bytesPassedOver: 0,
      passedOverMs: 0,
      papers: 0,
    };
  }

  startFile(file: string, fileBytesTotal: number): void {
    const state = this.#state;
    state.file = file;
    state.fileIndex++;
    state.fileBytesRead = 0;
    state.fileBytesTotal = fileBytesTotal;
    this.#lastBytesAt = this.#now().getTime();
  }

  addBytes(n: number, passedOver = false): void {
    const state = this.#state;
    state.fileBytesRead += n;
    state.bytesRead += n;
    const at = this.#now().getTime();
    if (passedOver) {
      state.bytesPassedOver += n;
      state.passedOverMs += Math.max(0, at - this.#lastBytesAt);
    }
    this.#lastBytesAt = at;
    this.#maybeEmit();
  }

  addPapers(n: number): void {
    this.#state.papers += n;
    this.#maybeEmit();
  }

  /** Settles the byte count to the file's size (a failed file may stop early) and reports unthrottled. */
  finishFile(): void {
    const state = this.#state;
    state.bytesRead += Math.max(0, state.fileBytesTotal - state.fileBytesRead);
    state.fileBytesRead = state.fileBytesTotal;
    this.#emit();
  }

  #maybeEmit(): void {
    if (!this.#onProgress) return;
    if (this.#now().getTime() - this.#lastEmit >= MIN_INTERVAL_MS) this.#emit();
  }

  #emit(): void {
    if (!this.#onProgress) return;
    this.#lastEmit = this.#now().getTime();
    this.#onProgress({ ...this.#state });
  }
}
