/** One self-overwriting status line on a terminal; nothing when stderr is a file or a pipe. */
export class Progress {
  private last = 0;
  private readonly started = performance.now();
  private readonly enabled = process.stderr.isTTY === true;

  /** `text` gets the rate so far (rows per second, formatted); redrawn at most 5 times a second. */
  show(rows: number, text: (rate: string) => string, force = false) {
    const now = performance.now();
    if (!this.enabled || (!force && now - this.last < 200)) return;
    this.last = now;
    const rate = Math.round((rows / Math.max(now - this.started, 1)) * 1000).toLocaleString('en-US');
    process.stderr.write(`\r\x1b[2K${text(rate)}`);
  }

  clear() {
    if (this.enabled) process.stderr.write('\r\x1b[2K');
  }
}
