/** The fictional product catalogue of the bundled demo shop, and the canonical demo task. */

/** One product of the demo shop. `reference` is the value an agent is asked to report. */
export interface DemoProduct {
  readonly id: string;
  readonly name: string;
  readonly category: string;
  readonly priceCents: number;
  readonly description: string;
  readonly reference: string;
}

/** Every product, in display order. Ids are URL slugs (`/item/:id`); references are distinct. */
export const demoProducts: readonly DemoProduct[] = Object.freeze([
  product(
    'aurora-desk-lamp',
    'Aurora Desk Lamp',
    'Lighting',
    4900,
    'ORD-4821-KX',
    'Adjustable aluminium desk lamp with a warm dimmable LED.',
  ),
  product(
    'nimbus-floor-lamp',
    'Nimbus Floor Lamp',
    'Lighting',
    12900,
    'ORD-7305-QM',
    'Tall floor lamp with a linen shade for soft room light.',
  ),
  product(
    'lumen-clip-lamp',
    'Lumen Clip Lamp',
    'Lighting',
    2450,
    'ORD-1968-TB',
    'Small clip-on reading lamp that fits shelves and headboards.',
  ),
  product(
    'ember-bedside-lamp',
    'Ember Bedside Lamp',
    'Lighting',
    6400,
    'ORD-2608-YG',
    'Glass bedside lamp with a touch switch and three brightness levels.',
  ),
  product(
    'harbor-ceramic-mug',
    'Harbor Ceramic Mug',
    'Kitchen',
    1400,
    'ORD-5532-LR',
    'Hand-glazed 350 ml stoneware mug in sea blue.',
  ),
  product(
    'granite-pour-over-kettle',
    'Granite Pour-Over Kettle',
    'Kitchen',
    5900,
    'ORD-2274-WD',
    'Gooseneck kettle for slow, even pour-over coffee.',
  ),
  product(
    'tundra-wool-blanket',
    'Tundra Wool Blanket',
    'Home',
    8900,
    'ORD-6140-HN',
    'Heavy merino throw blanket, 130 × 180 cm.',
  ),
  product(
    'cedar-bookend-pair',
    'Cedar Bookend Pair',
    'Home',
    3200,
    'ORD-3897-PZ',
    'Two solid cedar bookends with felt pads.',
  ),
  product(
    'pilot-notebook-a5',
    'Pilot Notebook A5',
    'Stationery',
    950,
    'ORD-8016-CF',
    'Dotted A5 notebook with 192 numbered pages.',
  ),
  product(
    'meridian-fountain-pen',
    'Meridian Fountain Pen',
    'Stationery',
    4200,
    'ORD-4419-VS',
    'Brass fountain pen with a fine steel nib and a converter.',
  ),
  product(
    'drift-desk-organizer',
    'Drift Desk Organizer',
    'Office',
    2700,
    'ORD-9753-JE',
    'Oak desk organizer with three compartments for pens and cards.',
  ),
]);

function product(
  id: string,
  name: string,
  category: string,
  priceCents: number,
  reference: string,
  description: string,
): DemoProduct {
  return Object.freeze({ id, name, category, priceCents, reference, description });
}

/** The demo shop's only account. */
export const demoCredentials = Object.freeze({ username: 'demo', password: 'clawdie' });

/**
 * Products whose name, category or description contain every whitespace-separated word of
 * `query` (case-insensitive). An empty query matches every product.
 */
export function searchDemoProducts(query: string): DemoProduct[] {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word.length > 0);
  return demoProducts.filter((item) => {
    const haystack = `${item.name} ${item.category} ${item.description}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

/** The product with this id, or undefined. */
export function findDemoProduct(id: string): DemoProduct | undefined {
  return demoProducts.find((item) => item.id === id);
}

/** Formats cents as the shop displays prices, e.g. `€49.00`. */
export function formatPrice(priceCents: number): string {
  return `€${(priceCents / 100).toFixed(2)}`;
}

/** The canonical end-to-end task on the demo shop. */
export interface DemoTask {
  readonly instruction: string;
  readonly expectedValue: string;
  readonly searchTerm: string;
  readonly productName: string;
  readonly productId: string;
  readonly username: string;
  readonly password: string;
}

const searchTerm = 'lamp';
const target = findDemoProduct('aurora-desk-lamp');
if (target === undefined) throw new Error('demo catalogue lost its target product');

/**
 * The canonical demo task: log in, search, open one of several matching products and report its
 * order reference. The search term matches four lamps, so the agent must pick the right one.
 */
export const demoTask: DemoTask = Object.freeze({
  instruction:
    `Log in to the demo shop with username ${demoCredentials.username} and password ` +
    `${demoCredentials.password}, search for "${searchTerm}", open "${target.name}" and report ` +
    'its order reference.',
  expectedValue: target.reference,
  searchTerm,
  productName: target.name,
  productId: target.id,
  username: demoCredentials.username,
  password: demoCredentials.password,
});
