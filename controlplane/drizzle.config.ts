import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './src/platform/store/schema.ts',
  out: './drizzle',
});
