/**
 * Cuts streamed text into lines without holding more than one chunk and one unfinished line:
 * each complete line goes to the sink with its 1-based number and the offset of its first
 * character. A byte order mark at the start is skipped; a line ending in CR LF loses neither
 * character here (CSV needs the CR inside quoted fields); a line longer than the limit stops the
 * splitter and is reported instead of growing without bound.
 */

/** Receives the lines of a text. */
export interface LineSink {
  /** One line, without its LF. */
  line(text: string, line: number, offset: number): void;
  /** A line past `maxLineChars`; nothing is sent after it. */
  tooLong(line: number, offset: number): void;
}

/** Splits pushed text into lines for a sink. */
export class LineSplitter {
  private carry = '';
  private started = false;
  private lineNo = 0;
  private offset = 0;
  private stopped = false;

  constructor(
    private readonly sink: LineSink,
    private readonly maxLineChars: number,
  ) {}

  /** Physical lines sent so far. */
  get lines(): number {
    return this.lineNo;
  }

  /** Stops the splitter: later text is ignored (the reader found an error). */
  stop(): void {
    this.stopped = true;
  }

  /** Feeds the next chunk of text. */
  push(chunk: string): void {
    if (this.stopped) return;
    let text = this.carry === '' ? chunk : this.carry + chunk;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    let pos = 0;
    for (;;) {
      const nl = text.indexOf('\n', pos);
      if (nl < 0) break;
      if (nl - pos > this.maxLineChars) return this.overflow();
      this.emit(text.slice(pos, nl), nl + 1 - pos);
      if (this.stopped) return;
      pos = nl + 1;
    }
    this.carry = pos === 0 ? text : text.slice(pos);
    if (this.carry.length > this.maxLineChars) this.overflow();
  }

  /** Ends the text: a last line without LF is sent. */
  end(): void {
    if (this.stopped || this.carry === '') return;
    const last = this.carry;
    this.carry = '';
    this.emit(last, last.length);
  }

  private emit(text: string, consumed: number): void {
    this.lineNo++;
    this.sink.line(text, this.lineNo, this.offset);
    this.offset += consumed;
  }

  private overflow(): void {
    this.stopped = true;
    this.carry = '';
    this.sink.tooLong(this.lineNo + 1, this.offset);
  }
}
