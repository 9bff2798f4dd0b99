// placeholder, replaced below
export default function Page() {
  return null;
}
