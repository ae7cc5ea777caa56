/**
 * The service's peak resident memory as the run goes: its high-water mark read after each phase
 * (the mark never falls, and a restarted service starts its own), so the report can say which
 * phase made the peak: authorizations, or a catch-up on the bulk-seeded log.
 */
export class PeakMemoryByPhase {
  private readonly marks: { phase: string; mib: number }[] = [];
  private earlierServices = 0;

  /** The service's high-water mark after `phase`. */
  after(phase: string, serviceMib: number): void {
    this.marks.push({ phase, mib: Math.max(this.earlierServices, serviceMib) });
  }

  /** A service is stopped for another: its mark still counts. */
  restarted(stoppedServiceMib: number): void {
    this.earlierServices = Math.max(this.earlierServices, stoppedServiceMib);
  }

  get peakMib(): number {
    return this.marks.reduce((peak, mark) => Math.max(peak, mark.mib), 0);
  }

  /** Where the peak was first reached, and the running peak after each phase. */
  describe(): string {
    const peak = this.peakMib;
    const first = this.marks.find((mark) => mark.mib === peak);
    return `first reached in: ${first?.phase ?? 'no phase'} (running peak after each phase: ${this.marks.map((mark) => `${mark.phase} ${mark.mib}`).join(', ')} MiB)`;
  }
}
