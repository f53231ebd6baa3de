import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // The input rules ship as TypeScript source from the workspace (`@skein/domain/inputs`); the
  // client (`@skein/client`) is built JavaScript and the contract is types only.
  transpilePackages: ["@skein/domain"],
  // The UI talks to the API from the browser; nothing here needs the image optimizer.
  images: { unoptimized: true },
  poweredByHeader: false,
  reactStrictMode: true,
  experimental: {
    // A page's server payload says which components to draw, never data: every route reads the
    // API from the browser (the root layout's API address is fixed per process). So a page the
    // router has fetched is reused for 30 s instead of asked again on every visit: switching back
    // to a thread (issue 29) need not wait for the web server before the page can change.
    staleTimes: { dynamic: 30 },
  },
};

export default nextConfig;
