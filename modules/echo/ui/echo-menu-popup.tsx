import { useEffect, useRef, type KeyboardEvent, type RefObject } from "react";
import type { MenuItem } from "./echo-menu";

/**
 * The open ⋯ menu (loaded on first use: most cards are read, not acted on). Focus goes to the
 * first or last item as it opens; ↑/↓ wrap, Home/End jump, Escape closes and gives focus back to
 * the button, Tab closes and moves on; a click outside closes it.
 */
export function EchoMenuPopup({ id, items, initial, button, onClose }: {
  id: string;
  items: MenuItem[];
  initial: "first" | "last";
  button: RefObject<HTMLButtonElement | null>;
  onClose: () => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const menuItems = () => Array.from(box.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);

  useEffect(() => {
    const list = menuItems();
    (initial === "last" ? list[list.length - 1] : list[0])?.focus();
    const onPointerDown = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!box.current?.contains(target) && !button.current?.contains(target)) onClose();
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [initial]);

  function onKeyDown(e: KeyboardEvent) {
    const list = menuItems();
    const at = list.indexOf(document.activeElement as HTMLElement);
    const focus = (i: number) => list[(i + list.length) % list.length]?.focus();
    const keys: Record<string, () => void> = {
      ArrowDown: () => focus(at + 1),
      ArrowUp: () => focus(at - 1),
      Home: () => focus(0),
      End: () => focus(list.length - 1),
      Escape: () => {
        onClose();
        button.current?.focus();
      },
    };
    if (e.key === "Tab") return onClose(); // focus moves on by itself
    const action = keys[e.key];
    if (!action) return;
    e.preventDefault();
    e.stopPropagation(); // Escape here closes the menu only, not a drawer around it
    action();
  }

  return (
    <div role="menu" id={id} aria-label="Echo menu" className="menu" ref={box} onKeyDown={onKeyDown}>
      {items.map((item) => (
        <button
          key={item.label}
          role="menuitem"
          type="button"
          tabIndex={-1}
          className={item.danger ? "danger" : undefined}
          onClick={() => {
            onClose();
            // the item is about to vanish: focus goes back to the button (a dialog the item
            // opens takes it from there)
            button.current?.focus();
            item.onSelect();
          }}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}
