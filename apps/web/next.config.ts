import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // The input rules ship as TypeScript source from the workspace (`@skein/domain/inputs`); the
  // client (`@skein/client`) is built JavaScript and the contract is types only.
  transpilePackages: ["@skein/domain"],
  // The UI talks to the API from the browser; nothing here needs the image optimizer.
  images: { unoptimized: true },
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
