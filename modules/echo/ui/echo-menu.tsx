import { useId, useImperativeHandle, useRef, useState, type KeyboardEvent, type Ref } from "react";
import { lazyComponent } from "../../shared/index";

export type MenuItem = { label: string; onSelect: () => void; danger?: boolean };

/** What the card can do with the menu: give focus back to its button (after a dialog closes). */
export type EchoMenuHandle = { focusButton: () => void };

const loadPopup = () => import("./echo-menu-popup").then((m) => m.EchoMenuPopup);
const EchoMenuPopup = lazyComponent(loadPopup);

/**
 * The echo's ⋯ menu, the WAI-ARIA menu button pattern: the button is the only tab stop;
 * Enter, Space or ↓ open the menu on its first item, ↑ on its last (the open menu's keys are in
 * echo-menu-popup.tsx, whose code loads when a pointer or focus first reaches a button).
 */
export function EchoMenu({ items, ref }: { items: MenuItem[]; ref?: Ref<EchoMenuHandle> }) {
  const [open, setOpen] = useState(false);
  // which item takes focus when the menu opens: first (click, Enter, ↓) or last (↑)
  const [initial, setInitial] = useState<"first" | "last">("first");
  const button = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  useImperativeHandle(ref, () => ({ focusButton: () => button.current?.focus() }), []);

  function openAt(where: "first" | "last") {
    setInitial(where);
    setOpen(true);
  }

  function onButtonKeyDown(e: KeyboardEvent) {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      openAt(e.key === "ArrowUp" ? "last" : "first");
    }
  }

  return (
    <div className="echo-menu">
      <button
        ref={button}
        type="button"
        className="icon-btn icon-btn-sm"
        aria-label="Echo menu"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? setOpen(false) : openAt("first"))}
        onKeyDown={onButtonKeyDown}
        onPointerEnter={() => void loadPopup()}
        onFocus={() => void loadPopup()}
      >
        ⋯
      </button>
      {open && <EchoMenuPopup id={menuId} items={items} initial={initial} button={button} onClose={() => setOpen(false)} />}
    </div>
  );
}
