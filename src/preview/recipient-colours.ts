/** A colour as red, green and blue from 0 to 1 (pdf-lib's), with its CSS form for the contact sheet. */
export interface RecipientColour {
  readonly red: number;
  readonly green: number;
  readonly blue: number;
  readonly css: string;
  /** What people call it, for the legend (the hex code means nothing to most readers). */
  readonly name: string;
}

function hex(css: string, name: string): RecipientColour {
  const n = Number.parseInt(css.slice(1), 16);
  return { red: ((n >> 16) & 255) / 255, green: ((n >> 8) & 255) / 255, blue: (n & 255) / 255, css, name };
}

/**
 * Okabe and Ito's palette (told apart with the common colour blindnesses),
 * without its yellow, too pale for text on white; then grey and black. The
 * ninth recipient takes the first colour again.
 */
const palette = [
  hex('#0072B2', 'blue'),
  hex('#D55E00', 'vermilion'),
  hex('#009E73', 'bluish green'),
  hex('#CC79A7', 'reddish purple'),
  hex('#E69F00', 'orange'),
  hex('#56B4E9', 'sky blue'),
  hex('#666666', 'grey'),
  hex('#000000', 'black'),
];

/** The colour of the recipient at `index` (0-based, in the envelope's order). */
export function recipientColour(index: number): RecipientColour {
  return palette[index % palette.length]!;
}
