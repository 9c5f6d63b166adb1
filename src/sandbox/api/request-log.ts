// What the /v1 handler answered, for benchmarks and the fault tests: totals per endpoint
// template, per status, per connection, and the faults it injected.

export class RequestLog {
  total = 0;
  tooManyRequests = 0;
  readonly byEndpoint = new Map<string, number>();
  readonly byStatus = new Map<string, number>();
  readonly bySid = new Map<string, number>();
  readonly faults = new Map<string, number>();

  /** status 'dropped' for a connection destroyed without an answer. */
  record(endpoint: string, status: number | 'dropped', sid?: string): void {
    this.total++;
    if (status === 429) this.tooManyRequests++;
    inc(this.byEndpoint, endpoint);
    inc(this.byStatus, String(status));
    if (sid !== undefined) inc(this.bySid, sid);
  }

  recordFault(kind: string): void {
    inc(this.faults, kind);
  }

  /** Requests answered for one endpoint template, e.g. `GET /usage-units/{id}/consumption`. */
  count(endpoint: string): number {
    return this.byEndpoint.get(endpoint) ?? 0;
  }

  toJSON() {
    return {
      total: this.total,
      too_many_requests: this.tooManyRequests,
      by_endpoint: Object.fromEntries(this.byEndpoint),
      by_status: Object.fromEntries(this.byStatus),
      by_sid: Object.fromEntries(this.bySid),
      faults: Object.fromEntries(this.faults),
    };
  }
}

function inc(m: Map<string, number>, k: string): void {
  m.set(k, (m.get(k) ?? 0) + 1);
}
