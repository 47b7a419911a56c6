/**
 * Python difflib's SequenceMatcher(None, a, b).ratio() for strings, ported as is (including the
 * "autojunk" rule for sequences of 200 elements or more), so text fields are judged exactly as the
 * reference scorer judges them.
 */
export function sequenceRatio(a: string, b: string): number {
  const A = [...a];
  const B = [...b];
  const total = A.length + B.length;
  if (total === 0) return 1;
  const b2j = new Map<string, number[]>();
  B.forEach((ch, j) => {
    const list = b2j.get(ch);
    if (list) list.push(j);
    else b2j.set(ch, [j]);
  });
  if (B.length >= 200) {
    const popular = Math.floor(B.length / 100) + 1;
    for (const [ch, list] of [...b2j]) if (list.length > popular) b2j.delete(ch);
  }

  const findLongestMatch = (alo: number, ahi: number, blo: number, bhi: number): [number, number, number] => {
    let besti = alo;
    let bestj = blo;
    let bestsize = 0;
    let j2len = new Map<number, number>();
    for (let i = alo; i < ahi; i++) {
      const newj2len = new Map<number, number>();
      for (const j of b2j.get(A[i]!) ?? []) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (j2len.get(j - 1) ?? 0) + 1;
        newj2len.set(j, k);
        if (k > bestsize) {
          besti = i - k + 1;
          bestj = j - k + 1;
          bestsize = k;
        }
      }
      j2len = newj2len;
    }
    // Extend over elements left out of b2j (popular ones), as difflib does.
    while (besti > alo && bestj > blo && A[besti - 1] === B[bestj - 1]) {
      besti--;
      bestj--;
      bestsize++;
    }
    while (besti + bestsize < ahi && bestj + bestsize < bhi && A[besti + bestsize] === B[bestj + bestsize])
      bestsize++;
    return [besti, bestj, bestsize];
  };

  let matched = 0;
  const queue: Array<[number, number, number, number]> = [[0, A.length, 0, B.length]];
  while (queue.length > 0) {
    const [alo, ahi, blo, bhi] = queue.pop()!;
    const [i, j, k] = findLongestMatch(alo, ahi, blo, bhi);
    if (k === 0) continue;
    matched += k;
    if (alo < i && blo < j) queue.push([alo, i, blo, j]);
    if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
  }
  return (2 * matched) / total;
}
