import { defineConfig } from 'drizzle-kit';

// The PostgreSQL migrations, generated from the PostgreSQL mirror of the schema.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/platform/store/pg/schema.ts',
  out: './drizzle-pg',
});
