// The port the server listens on. Parts made before the server (Home Assistant's link,
// /api/config) are given this at construction and read the port from it when they need it.

export class ListeningPort {
  private actual?: number;

  constructor(private readonly configured: number) {}

  /** The port listened on; before the server listens, the configured one. */
  get port(): number {
    return this.actual ?? this.configured;
  }

  /** Told once, by the composition root, when the server listens. */
  listened(port: number): void {
    this.actual = port;
  }
}
