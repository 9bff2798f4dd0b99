import { useEffect, useRef, useState } from "react";
import { Link, useRevalidator } from "react-router";
import type { Echo } from "../../echo/index";
import type { Scroll } from "../schema";
import { echos } from "./counts";
import { addToScroll } from "./scroll-actions";

/** Save to Scroll (spec §5): only the viewer's own curations; Add is enabled once one is chosen. */
export function SaveToScroll({ echo, curations, onClose }: { echo: Echo; curations: Scroll[]; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [chosen, setChosen] = useState<string>("");
  const [adding, setAdding] = useState(false);
  const revalidator = useRevalidator();

  useEffect(() => {
    ref.current?.showModal();
  }, []);
  // closing through the element (not by unmounting it open) lets the browser give focus back to
  // what opened the dialog; its close event then calls onClose
  const close = () => ref.current?.close();

  async function add() {
    if (!chosen) return;
    setAdding(true);
    const ok = await addToScroll(chosen, echo._id);
    setAdding(false);
    if (ok) {
      void revalidator.revalidate();
      close();
    }
  }

  return (
    <dialog ref={ref} className="dialog" onClose={onClose} aria-labelledby="save-title">
      <h2 id="save-title">Save to Scroll</h2>
      {curations.length === 0 ? (
        <p className="muted">
          You have no curation scrolls yet. <Link to="/scroll/new?type=curation">Create a curation</Link>
        </p>
      ) : (
        <fieldset className="radio-list">
          <legend>Choose one of your curations</legend>
          {curations.map((c) => (
            <label key={c._id}>
              <input type="radio" name="curation" value={c._id} checked={chosen === c._id} onChange={() => setChosen(c._id)} />{" "}
              <bdi>{c.name}</bdi> <span className="muted">({echos(c.echosCount)})</span>
            </label>
          ))}
        </fieldset>
      )}
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={close}>
          Cancel
        </button>
        <button type="button" className="btn btn-primary" disabled={!chosen || adding} onClick={add}>
          {adding ? "Adding..." : "Add"}
        </button>
      </div>
    </dialog>
  );
}
