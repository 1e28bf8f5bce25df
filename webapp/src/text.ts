// Small text helpers the screens share.

/** Lower case without accents: "yaounde" finds "Yaoundé", "cote" finds "Côte d’Ivoire". */
export function folded(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}
