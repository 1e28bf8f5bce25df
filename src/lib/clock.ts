// The one clock: services, the worker and limits ask it for "now", so tests move time instead of sleeping.
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = {
  now: () => new Date(),
};

/** A clock that only moves when told to; for tests and simulations. */
export class ManualClock implements Clock {
  #now: number;

  constructor(start: Date | string = '2026-03-10T12:00:00.000Z') {
    this.#now = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.#now);
  }

  advance(ms: number): void {
    this.#now += ms;
  }

  advanceSeconds(seconds: number): void {
    this.advance(seconds * 1000);
  }

  set(at: Date | string): void {
    this.#now = new Date(at).getTime();
  }
}
