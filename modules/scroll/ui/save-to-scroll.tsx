import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link, useRevalidator } from "react-router";
import type { Echo } from "../../echo/index";
import { api, toast, UNITS_PER_CHAR } from "../../shared/index";
import { MAX_NAME, type Scroll } from "../schema";
import { echos } from "./counts";
import { addToScroll } from "./scroll-actions";

/**
 * Save to Scroll (spec §5): only the viewer's own curations; Add is enabled once one is chosen.
 * A single curation comes chosen, so saving is menu → Save to Scroll → Add; and a new curation
 * can be made here, the echo saved into it at once (issue 29).
 */
export function SaveToScroll({ echo, curations, onClose }: { echo: Echo; curations: Scroll[]; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [chosen, setChosen] = useState<string>(curations.length === 1 ? curations[0]!._id : "");
  const [adding, setAdding] = useState(false);
  const [newName, setNewName] = useState("");
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

  async function createAndAdd(e: FormEvent) {
    e.preventDefault();
    const name = newName.trim();
    if (!name || adding) return;
    setAdding(true);
    try {
      const { scroll } = await api<{ scroll: Scroll }>("/scroll/create", {
        method: "POST",
        body: { name, description: "", type: "curation", isPrivate: false },
        fallback: "Failed to create scroll",
      });
      if (await addToScroll(scroll._id, echo._id)) {
        void revalidator.revalidate();
        close();
      }
    } catch (error) {
      toast.error((error as Error).message);
    } finally {
      setAdding(false);
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
      <form className="field new-curation" onSubmit={createAndAdd}>
        <label htmlFor="new-curation-name">Or save it in a new curation</label>
        <div className="new-curation-row">
          <input
            id="new-curation-name"
            value={newName}
            maxLength={MAX_NAME * UNITS_PER_CHAR}
            placeholder="Curation name"
            autoComplete="off"
            onChange={(e) => setNewName(e.target.value)}
          />
          <button type="submit" className="btn" disabled={!newName.trim() || adding}>
            Create and add
          </button>
        </div>
      </form>
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
