import type { DemoProduct } from './demo-catalogue.js';
import { formatPrice } from './demo-catalogue.js';
import type { DemoTemplates } from './demo-templates.js';
import { renderTemplate } from './demo-templates.js';

/** Renders the demo site's pages from loaded templates; every value is HTML-escaped. */
export interface DemoPages {
  login(options?: { error?: string }): string;
  search(username: string): string;
  results(username: string, query: string, products: readonly DemoProduct[]): string;
  item(username: string, product: DemoProduct): string;
  notFound(username: string | null, message: string): string;
}

/** Builds the page renderers over one set of templates. Pure: no I/O after loading. */
export function createDemoPages(templates: DemoTemplates): DemoPages {
  const { html } = templates;

  const layout = (title: string, username: string | null, content: string): string =>
    renderTemplate(html.layout, {
      title,
      styleElement: `<style>\n${templates.style}\n</style>`,
      account: username === null ? '' : renderTemplate(html.account, { username }),
      content,
    });

  const searchForm = (query: string): string => renderTemplate(html['search-form'], { query });

  return {
    login(options = {}) {
      const error =
        options.error === undefined
          ? ''
          : renderTemplate(html['login-error'], { message: options.error });
      return layout('Sign in', null, renderTemplate(html.login, { error }));
    },

    search(username) {
      const content = renderTemplate(html.search, { username, searchForm: searchForm('') });
      return layout('Search', username, content);
    },

    results(username, query, products) {
      const heading = query === '' ? 'All products' : `Results for “${query}”`;
      const count =
        products.length === 1 ? '1 product found.' : `${products.length} products found.`;
      const items = products.map((item) =>
        renderTemplate(html['result-item'], {
          id: item.id,
          name: item.name,
          category: item.category,
          price: formatPrice(item.priceCents),
          description: item.description,
        }),
      );
      const list =
        products.length === 0
          ? '<p>No products match your search. Try another word, such as “lamp” or “pen”.</p>'
          : `<ul class="results">\n    ${items.join('\n    ')}\n  </ul>`;
      const content = renderTemplate(html.results, {
        searchForm: searchForm(query),
        heading,
        count,
        list,
      });
      return layout(query === '' ? 'All products' : `${query} – Search results`, username, content);
    },

    item(username, product) {
      const content = renderTemplate(html.item, {
        name: product.name,
        description: product.description,
        category: product.category,
        price: formatPrice(product.priceCents),
        reference: product.reference,
      });
      return layout(product.name, username, content);
    },

    notFound(username, message) {
      return layout('Not found', username, renderTemplate(html['not-found'], { message }));
    },
  };
}
