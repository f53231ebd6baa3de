import { HomeSections } from "../components/home/home-sections.tsx";

export default function HomePage() {
  return (
    <div className="page">
      <h1>Projects</h1>
      <HomeSections />
    </div>
  );
}
