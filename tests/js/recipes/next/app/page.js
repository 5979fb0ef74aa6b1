export default function Page() {
  return <p>turnwire recipe: POST fixtures to /api/node or /api/edge</p>;
}
