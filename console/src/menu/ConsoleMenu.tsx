import ExpandLess from "@mui/icons-material/ExpandLess";
import ExpandMore from "@mui/icons-material/ExpandMore";
import { Collapse, ListItemButton, ListItemText } from "@mui/material";
import { Menu, useCanAccessResources, useResourceDefinitions, useSidebarState, useStore, useTranslate } from "react-admin";
import { groupResources, type MenuGroup } from "./groups.ts";

/** One group: a header that folds it, then the entries this staff member may list (react-admin asks canAccess for each). */
function MenuGroupItems({ group, resources }: { group: MenuGroup; resources: string[] }) {
  const translate = useTranslate();
  const [sidebarOpen] = useSidebarState();
  // folded groups are remembered in react-admin's store (localStorage), so a moderator who folds Shop keeps it folded
  const [folded, setFolded] = useStore<boolean>(`console.menu.folded.${group}`, false);
  const label = translate(`console.menu.groups.${group}`);
  return (
    <div data-menu-group={group}>
      {/* with the sidebar shrunk to icons there is no room for a header; the icons stay */}
      {sidebarOpen && (
        <ListItemButton dense onClick={() => setFolded(!folded)} aria-expanded={!folded} data-menu-toggle={group} sx={{ py: 0.5 }}>
          <ListItemText primary={label} slotProps={{ primary: { variant: "overline", color: "text.secondary", lineHeight: 1.6 } }} />
          {folded ? <ExpandMore fontSize="small" /> : <ExpandLess fontSize="small" />}
        </ListItemButton>
      )}
      <Collapse in={!folded || !sidebarOpen} unmountOnExit>
        {resources.map((name) => (
          <Menu.ResourceItem key={name} name={name} />
        ))}
      </Collapse>
    </div>
  );
}

/** The console menu in groups (menu/groups.ts); a role sees only the groups holding at least one entry it may list. */
export function ConsoleMenu() {
  const definitions = useResourceDefinitions();
  const listed = Object.values(definitions)
    .filter((d) => d.hasList)
    .map((d) => d.name);
  const { canAccess } = useCanAccessResources({ action: "list", resources: listed });
  const groups = canAccess ? groupResources(listed.filter((r) => canAccess[r])) : [];
  return (
    <Menu>
      <Menu.DashboardItem />
      {groups.map((g) => (
        <MenuGroupItems key={g.group} {...g} />
      ))}
    </Menu>
  );
}
