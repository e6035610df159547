import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // pg and the Prisma adapter must stay Node modules, not bundled (gpt-tokenizer: its encodings are large).
  serverExternalPackages: ['pg', '@prisma/adapter-pg', 'bullmq', 'ioredis', 'gpt-tokenizer'],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
