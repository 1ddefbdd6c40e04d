// The database schema, one module per area; drizzle-kit generates migrations from this file.

export * from './tables/cash-out.ts';
export * from './tables/claims.ts';
export * from './tables/comments.ts';
export * from './tables/events.ts';
export * from './tables/marketplace.ts';
export * from './tables/money.ts';
export * from './tables/search.ts';
export * from './tables/web.ts';
