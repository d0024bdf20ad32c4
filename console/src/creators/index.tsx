import CardMembershipIcon from "@mui/icons-material/CardMembership";
import CollectionsIcon from "@mui/icons-material/Collections";
import { Box, Stack } from "@mui/material";
import { Link } from "react-router";
import {
  Button,
  Datagrid,
  DateField,
  FunctionField,
  Labeled,
  List,
  NumberField,
  ReferenceField,
  SelectInput,
  Show,
  SimpleShowLayout,
  TextField,
  TextInput,
  useRecordContext,
} from "react-admin";
import { CREATOR_MEMBERSHIP_STATUSES, LIBRARY_VISIBILITIES } from "../../../server/src/contract/creators.ts";
import { choicesOf } from "../common/choices.ts";

/** The page a row belongs to, by its link, opening the page. */
const pageField = (
  <ReferenceField source="creatorPageId" reference="creator-pages" link="show">
    <TextField source="homeLink" />
  </ReferenceField>
);

const membershipFilters = [
  <TextInput key="creatorPageId" source="creatorPageId" alwaysOn />,
  <SelectInput key="status" source="status" choices={choicesOf(CREATOR_MEMBERSHIP_STATUSES)} alwaysOn />,
  <TextInput key="fanUserId" source="fanUserId" />,
];

/** Paid memberships of creator pages, read-only: the fans' own joins and cancels and the renewal sweep change them. */
function MembershipList() {
  return (
    <List filters={membershipFilters} sort={{ field: "id", order: "DESC" }}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="id" />
        <ReferenceField source="fanUserId" reference="users" link="show" />
        {pageField}
        <NumberField source="price" />
        <NumberField source="period" />
        <TextField source="status" />
        <DateField source="renewsAt" showTime emptyText="—" />
        <DateField source="endsAt" showTime emptyText="—" />
      </Datagrid>
    </List>
  );
}

function MembershipShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="id" />
        <ReferenceField source="fanUserId" reference="users" link="show" />
        {pageField}
        <NumberField source="price" />
        <NumberField source="period" />
        <TextField source="status" />
        <DateField source="paidThrough" showTime />
        <DateField source="renewsAt" showTime emptyText="—" />
        <DateField source="endsAt" showTime emptyText="—" />
        <DateField source="createdAt" showTime />
        <DateField source="cancelledAt" showTime emptyText="—" />
        <DateField source="endedAt" showTime emptyText="—" />
      </SimpleShowLayout>
    </Show>
  );
}

export const creatorMemberships = { list: MembershipList, show: MembershipShow };

/** The creation's picture (an image, a video's poster), signed for a few minutes; a dash once its files are gone. */
function Thumbnail({ size }: { size: number }) {
  const r = useRecordContext<{ thumbnailUrl: string | null }>();
  if (!r?.thumbnailUrl) return <>—</>;
  return (
    <Box
      component="img"
      src={r.thumbnailUrl}
      alt=""
      data-testid="library-thumbnail"
      sx={{ width: size, height: size, objectFit: "cover", borderRadius: 1, display: "block" }}
    />
  );
}

const itemFilters = [
  <TextInput key="creatorPageId" source="creatorPageId" alwaysOn />,
  <SelectInput key="visibility" source="visibility" choices={choicesOf(LIBRARY_VISIBILITIES)} alwaysOn />,
];

/** What creator pages show, read-only: a creation is moderated as its generation task (reports, takedowns). */
function LibraryItemList() {
  return (
    <List filters={itemFilters} sort={{ field: "id", order: "DESC" }}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="id" />
        {pageField}
        <FunctionField source="thumbnailUrl" sortable={false} render={() => <Thumbnail size={56} />} />
        <TextField source="visibility" />
        <DateField source="createdAt" showTime />
        <TextField source="creationState" emptyText="—" />
      </Datagrid>
    </List>
  );
}

function LibraryItemShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="id" />
        {pageField}
        <FunctionField source="thumbnailUrl" render={() => <Thumbnail size={240} />} />
        <ReferenceField source="taskId" reference="generation-tasks" link="show" />
        <TextField source="visibility" />
        <DateField source="createdAt" showTime />
        <TextField source="creationState" emptyText="—" />
        <TextField source="creationStatus" emptyText="—" />
      </SimpleShowLayout>
    </Show>
  );
}

export const creatorLibraryItems = { list: LibraryItemList, show: LibraryItemShow };

/** On a creator page's show view: its memberships and its library, each a list filtered by the page. */
export function CreatorPageLists() {
  const r = useRecordContext<{ id: number }>();
  if (!r) return null;
  const search = `?filter=${encodeURIComponent(JSON.stringify({ creatorPageId: r.id }))}`;
  return (
    <Labeled label="console.creators.lists">
      <Stack direction="row" spacing={1} sx={{ flexWrap: "wrap" }}>
        <Button component={Link} to={{ pathname: "/creator-memberships", search }} label="console.creators.memberships" data-testid="page-memberships">
          <CardMembershipIcon />
        </Button>
        <Button component={Link} to={{ pathname: "/creator-library-items", search }} label="console.creators.library" data-testid="page-library">
          <CollectionsIcon />
        </Button>
      </Stack>
    </Labeled>
  );
}
