import type { NextConfig } from 'next';
import { STATIC_SECURITY_HEADERS } from './lib/auth/headers';

const nextConfig: NextConfig = {
  // pg and the Prisma adapter must stay Node modules, not bundled (gpt-tokenizer: its encodings are large).
  serverExternalPackages: ['pg', '@prisma/adapter-pg', 'bullmq', 'ioredis', 'gpt-tokenizer'],
  poweredByHeader: false,
  typedRoutes: false,
  // Server actions take up to 24 MB, so an import over the spec limit (5 MB, lib/schema/input.ts) reaches the
  // one parse and gets its field-named error; the import form refuses larger files before sending them. (A trace
  // file goes to its own route, app/api/trace-imports, which reads it as it arrives: proxy.ts leaves it alone.)
  // forbidden() / unauthorized() in pages and server actions answer 403 / 401 (app/forbidden.tsx, app/unauthorized.tsx);
  // proxy.ts sees every request: it must pass those bodies on whole (its default would cut them at 10 MB).
  experimental: { serverActions: { bodySizeLimit: '24mb' }, proxyClientMaxBodySize: '24mb', authInterrupts: true },
  // `npm test` runs `tsc --noEmit` over the whole project before `next build`: the build need not type-check again.
  typescript: { ignoreBuildErrors: true },
  async headers() {
    return [{ source: '/:path*', headers: STATIC_SECURITY_HEADERS }];
  },
};

export default nextConfig;
