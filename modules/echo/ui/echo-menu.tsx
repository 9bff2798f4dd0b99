import { useEffect, useId, useImperativeHandle, useRef, useState, type KeyboardEvent, type Ref } from "react";

export type MenuItem = { label: string; onSelect: () => void; danger?: boolean };

/** What the card can do with the menu: give focus back to its button (after a dialog closes). */
export type EchoMenuHandle = { focusButton: () => void };

/**
 * The echo's ⋯ menu, the WAI-ARIA menu button pattern: the button is the only tab stop;
 * Enter, Space or ↓ open the menu on its first item, ↑ on its last; inside, ↑/↓ wrap, Home/End
 * jump, Escape closes and gives focus back to the button, Tab closes and moves on; a click
 * outside closes it.
 */
export function EchoMenu({
  items,
  label = "Echo menu",
  ref,
  onOpen,
}: {
  items: MenuItem[];
  label?: string;
  ref?: Ref<EchoMenuHandle>;
  /** runs when the menu opens: the card starts loading the dialogs its items open */
  onOpen?: () => void;
}) {
  const [open, setOpen] = useState(false);
  // which item takes focus when the menu opens: first (click, Enter, ↓) or last (↑)
  const [initial, setInitial] = useState<"first" | "last">("first");
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  // a dialog's close event comes a task after it is gone (the browser has already put focus back
  // on the button by then): if the user has since moved into the menu, focus stays where it is
  useImperativeHandle(
    ref,
    () => ({
      focusButton: () => {
        if (!box.current?.contains(document.activeElement)) button.current?.focus();
      },
    }),
    [],
  );

  const menuItems = () => Array.from(box.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);

  useEffect(() => {
    if (!open) return;
    onOpen?.();
    const list = menuItems();
    (initial === "last" ? list[list.length - 1] : list[0])?.focus();
    const onPointerDown = (e: PointerEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
    // onOpen runs once per opening, whatever its identity (not a dependency)
  }, [open, initial]);

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

  function onMenuKeyDown(e: KeyboardEvent) {
    const list = menuItems();
    const at = list.indexOf(document.activeElement as HTMLElement);
    const focus = (i: number) => list[(i + list.length) % list.length]?.focus();
    const keys: Record<string, () => void> = {
      ArrowDown: () => focus(at + 1),
      ArrowUp: () => focus(at - 1),
      Home: () => focus(0),
      End: () => focus(list.length - 1),
      Escape: () => {
        setOpen(false);
        button.current?.focus();
      },
    };
    if (e.key === "Tab") return setOpen(false); // focus moves on by itself
    const action = keys[e.key];
    if (!action) return;
    e.preventDefault();
    e.stopPropagation(); // Escape here closes the menu only, not a drawer around it
    action();
  }

  return (
    <div className="echo-menu" ref={box}>
      <button
        ref={button}
        type="button"
        className="icon-btn icon-btn-sm"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? setOpen(false) : openAt("first"))}
        onKeyDown={onButtonKeyDown}
      >
        ⋯
      </button>
      {open && (
        <div role="menu" id={menuId} aria-label={label} className="menu" onKeyDown={onMenuKeyDown}>
          {items.map((item) => (
            <button
              key={item.label}
              role="menuitem"
              type="button"
              tabIndex={-1}
              className={item.danger ? "danger" : undefined}
              onClick={() => {
                setOpen(false);
                // the item is about to vanish: focus goes back to the button (a dialog the
                // item opens takes it from there)
                button.current?.focus();
                item.onSelect();
              }}
            >
              {item.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
