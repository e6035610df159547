import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // pg and the Prisma adapter must stay Node modules, not bundled.
  serverExternalPackages: ['pg', '@prisma/adapter-pg', 'bullmq', 'ioredis'],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
