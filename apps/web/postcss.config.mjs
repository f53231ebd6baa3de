// Tailwind CSS v4 runs as a PostCSS plugin under Next's own CSS pipeline.
export default { plugins: { "@tailwindcss/postcss": {} } };
