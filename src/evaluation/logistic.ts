/**
 * L2-regularised logistic regression fitted by Newton's method (iteratively reweighted least squares):
 * deterministic (no random start, no sampling, a fixed order), and converged in a few steps for the
 * few dozen features of the candidate ranking. The bias (feature 0) is not penalised.
 */
export function trainLogistic(
  features: readonly (readonly number[])[],
  labels: readonly boolean[],
  options: { l2?: number; iterations?: number; weights?: readonly number[] } = {},
): number[] {
  const l2 = options.l2 ?? 1;
  const iterations = options.iterations ?? 25;
  const d = features[0]?.length ?? 0;
  const w = new Array<number>(d).fill(0);
  for (let iteration = 0; iteration < iterations; iteration++) {
    const gradient = new Array<number>(d).fill(0);
    const hessian = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    for (let n = 0; n < features.length; n++) {
      const x = features[n]!;
      let z = 0;
      for (let i = 0; i < d; i++) z += w[i]! * x[i]!;
      const p = 1 / (1 + Math.exp(-z));
      const weight = options.weights?.[n] ?? 1;
      const r = weight * (p - (labels[n] ? 1 : 0));
      const s = weight * Math.max(p * (1 - p), 1e-6);
      for (let i = 0; i < d; i++) {
        const xi = x[i]!;
        if (xi === 0) continue;
        gradient[i]! += r * xi;
        const row = hessian[i]!;
        for (let j = 0; j < d; j++) row[j]! += s * xi * x[j]!;
      }
    }
    for (let i = 1; i < d; i++) {
      gradient[i]! += l2 * w[i]!;
      hessian[i]![i]! += l2;
    }
    hessian[0]![0]! += 1e-6;
    const step = solve(hessian, gradient);
    let change = 0;
    for (let i = 0; i < d; i++) {
      w[i]! -= step[i]!;
      change = Math.max(change, Math.abs(step[i]!));
    }
    if (change < 1e-7) break;
  }
  return w.map((v) => Math.round(v * 1e6) / 1e6);
}

/** Solves A x = b for a symmetric positive definite A (Gaussian elimination with partial pivoting). */
function solve(matrix: number[][], vector: number[]): number[] {
  const n = vector.length;
  const a = matrix.map((row, i) => [...row, vector[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    const p = a[col]![col]!;
    if (Math.abs(p) < 1e-12) continue;
    for (let r = col + 1; r < n; r++) {
      const f = a[r]![col]! / p;
      if (f === 0) continue;
      for (let c = col; c <= n; c++) a[r]![c]! -= f * a[col]![c]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let sum = a[r]![n]!;
    for (let c = r + 1; c < n; c++) sum -= a[r]![c]! * x[c]!;
    const p = a[r]![r]!;
    x[r] = Math.abs(p) < 1e-12 ? 0 : sum / p;
  }
  return x;
}
