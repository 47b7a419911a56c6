/**
 * A cap on single allocations of typed arrays and ArrayBuffers in this thread: asking for more than
 * `maxBytes` at once throws a RangeError instead of allocating. For the PDF worker threads, where
 * pdf.js sizes buffers from what a file declares (a JPEG header saying 65,000 x 65,000, a stream
 * inflating without end): these buffers live outside the JavaScript heap, so the thread's heap limit
 * does not see them, and pdf.js handles the error like any image or stream it cannot decode.
 *
 * The global constructors are replaced by functions that check the length and then make the array with
 * the real constructor: the arrays are plain ones (`instanceof`, `subarray`, structured clones unchanged).
 */
const TYPED_ARRAYS = [
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
] as const;

type Constructor = new (...args: unknown[]) => object;

export function capAllocations(maxBytes: number): void {
  const globals = globalThis as unknown as Record<string, Constructor & { BYTES_PER_ELEMENT?: number }>;
  const tooLarge = (bytes: number): RangeError =>
    new RangeError(`An allocation of ${Math.round(bytes / 1048576)} MB is over this thread's limit.`);
  for (const name of [...TYPED_ARRAYS, 'ArrayBuffer'] as const) {
    const Base = globals[name]!;
    if ((Base as { capped?: boolean }).capped) continue;
    const unit = Base.BYTES_PER_ELEMENT ?? 1;
    // A plain function that checks the length and returns what the real constructor makes: the arrays
    // are the engine's own (no subclass in pdf.js's hot paths, `subarray` and friends unchanged).
    const Capped = function (this: unknown, ...args: unknown[]): object {
      if (!new.target) throw new TypeError(`Constructor ${name} requires 'new'`);
      const length = args[0];
      if (typeof length === 'number') {
        if (length * unit > maxBytes) throw tooLarge(length * unit);
      } else if (
        typeof length === 'object' &&
        length !== null &&
        !(length instanceof ArrayBuffer) &&
        typeof (length as { length?: unknown }).length === 'number' &&
        (length as { length: number }).length * unit > maxBytes
      ) {
        // An array-like or iterable of a huge length is refused too.
        throw tooLarge((length as { length: number }).length * unit);
      }
      return Reflect.construct(Base, args, new.target === (Capped as unknown) ? Base : new.target);
    } as unknown as Constructor & { capped?: boolean };
    // Statics (from, of, BYTES_PER_ELEMENT, isView...) and `instanceof` stay the real constructor's.
    Object.setPrototypeOf(Capped, Base);
    Object.defineProperty(Capped, 'prototype', { value: Base.prototype });
    Object.defineProperty(Capped, 'name', { value: name });
    Object.defineProperty(Capped, 'capped', { value: true });
    globals[name] = Capped;
  }
}
