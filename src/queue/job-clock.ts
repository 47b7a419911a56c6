/**
 * Job `created` stamps: ISO 8601 UTC with microseconds and no zone suffix, as the interface shows
 * (`2026-11-22T10:15:30.123456`). Strictly increasing within one clock, so jobs created in the same
 * microsecond still sort in the order they were created.
 */
export function createJobClock(nowMicros: () => number = defaultNowMicros): () => string {
  let last = 0;
  return () => {
    let micros = Math.floor(nowMicros());
    if (micros <= last) micros = last + 1;
    last = micros;
    const iso = new Date(Math.floor(micros / 1000)).toISOString(); // ...T10:15:30.123Z
    return `${iso.slice(0, 23)}${String(micros % 1000).padStart(3, '0')}`;
  };
}

function defaultNowMicros(): number {
  return (performance.timeOrigin + performance.now()) * 1000;
}
