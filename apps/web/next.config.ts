import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // The typed client ships as TypeScript source from the workspace (`@skein/api/client`).
  transpilePackages: ["@skein/api"],
  // The UI talks to the API from the browser; nothing here needs the image optimizer.
  images: { unoptimized: true },
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
