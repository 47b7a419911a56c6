import type { TokenLayer } from '../core/types.js';

/**
 * The token layer of pages `first`..`last` (1-based, inclusive) as a document of its own: pages
 * numbered from 1, token, line and block ids from 0 in the same order. Boxes are page fractions and
 * stay as they are. This is how a split child gets its layer without being read again.
 */
export function sliceTokenLayer(layer: TokenLayer, first: number, last: number, fileId: string): TokenLayer {
  const inRange = (pageNum: number): boolean => pageNum >= first && pageNum <= last;
  const shift = first - 1;
  const blocks = layer.blocks.filter((b) => inRange(b.pageNum));
  const lines = layer.lines.filter((l) => inRange(l.pageNum));
  const tokens = layer.tokens.filter((t) => inRange(t.pageNum));
  const blockIds = new Map(blocks.map((b, i) => [b.id, i]));
  const lineIds = new Map(lines.map((l, i) => [l.id, i]));
  const tokenIds = new Map(tokens.map((t, i) => [t.id, i]));
  return {
    formatVersion: layer.formatVersion,
    fileId,
    mediaType: layer.mediaType,
    pages: layer.pages.filter((p) => inRange(p.pageNum)).map((p) => ({ ...p, pageNum: p.pageNum - shift })),
    tokens: tokens.map((t) => ({
      ...t,
      id: tokenIds.get(t.id)!,
      pageNum: t.pageNum - shift,
      lineId: lineIds.get(t.lineId) ?? -1,
    })),
    lines: lines.map((l) => ({
      ...l,
      id: lineIds.get(l.id)!,
      pageNum: l.pageNum - shift,
      blockId: blockIds.get(l.blockId) ?? -1,
      tokenIds: l.tokenIds.map((id) => tokenIds.get(id)!).filter((id) => id !== undefined),
    })),
    blocks: blocks.map((b) => ({
      ...b,
      id: blockIds.get(b.id)!,
      pageNum: b.pageNum - shift,
      lineIds: b.lineIds.map((id) => lineIds.get(id)!).filter((id) => id !== undefined),
    })),
    createdAt: layer.createdAt,
  };
}
