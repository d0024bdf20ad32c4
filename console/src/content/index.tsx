import type { ReactElement } from "react";
import {
  BooleanField,
  Datagrid,
  DateField,
  FunctionField,
  List,
  ReferenceField,
  SearchInput,
  SelectInput,
  Show,
  SimpleShowLayout,
  TextField,
  TopToolbar,
  useRecordContext,
} from "react-admin";
import { StaffAction } from "../common/StaffAction.tsx";
import { JsonField } from "../common/fields.tsx";
import { CONTENT_STATES } from "../../../server/src/contract/moderation.ts";
import { choicesOf } from "../common/choices.ts";
import { CreatorPageLists } from "../creators/index.tsx";

const STATES = choicesOf(CONTENT_STATES);

const filters = [<SearchInput key="q" source="q" alwaysOn />, <SelectInput key="state" source="state" choices={STATES} alwaysOn />];

interface ContentSpec {
  /** Console resource, also the admin API path. */
  resource: "characters" | "creator-pages";
  subject: "Character" | "CreatorPage";
  /** The field people know it by. */
  title: "name" | "title";
  /** What the show page adds for this kind. */
  details: ReactElement[];
  /** A mistaken takedown can be undone from the content itself (audited). */
  restorable?: boolean;
}

/**
 * Users' characters and creator pages as moderators see them: read-only, with owner and state, and a takedown
 * (with a reason) while the content is not already removed.
 */
function contentResource(spec: ContentSpec) {
  function Takedown() {
    const r = useRecordContext();
    if (!r || r.state === "removed") return null;
    return <StaffAction resource={spec.resource} path="takedown" can={["takedown", spec.subject]} label="console.action.takedown" color="warning" />;
  }

  function Restore() {
    const r = useRecordContext();
    if (!spec.restorable || r?.state !== "removed") return null;
    return <StaffAction resource={spec.resource} path="restore" can={["takedown", spec.subject]} label="console.action.restore" />;
  }

  const owner = <ReferenceField key="userId" source="userId" reference="users" link="show" emptyText="—" />;

  const ContentList = () => (
    <List filters={filters} sort={{ field: "id", order: "DESC" }}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="id" />
        <TextField source={spec.title} />
        {owner}
        <TextField source="state" />
        <DateField source="createdAt" showTime />
        <FunctionField
          label={false}
          render={() => (
            <>
              <Takedown />
              <Restore />
            </>
          )}
        />
      </Datagrid>
    </List>
  );

  const ContentShow = () => (
    <Show
      actions={
        <TopToolbar>
          <Takedown />
          <Restore />
        </TopToolbar>
      }
    >
      <SimpleShowLayout>
        <TextField source="id" />
        <TextField source={spec.title} />
        {owner}
        <TextField source="state" />
        {spec.details}
        <DateField source="createdAt" showTime />
        <DateField source="updatedAt" showTime />
      </SimpleShowLayout>
    </Show>
  );

  return { list: ContentList, show: ContentShow };
}

export const characters = contentResource({
  resource: "characters",
  subject: "Character",
  title: "name",
  details: [
    <TextField key="description" source="description" />,
    <TextField key="personality" source="personality" />,
    <TextField key="greeting" source="greeting" />,
    <BooleanField key="isPublic" source="isPublic" />,
  ],
});

export const creatorPages = contentResource({
  resource: "creator-pages",
  subject: "CreatorPage",
  title: "title",
  restorable: true,
  details: [
    <TextField key="homeLink" source="homeLink" />,
    <TextField key="bio" source="bio" />,
    <JsonField key="socialLinks" source="socialLinks" />,
    <TextField key="premiumOffer" source="premiumOffer" />,
    <CreatorPageLists key="lists" />,
  ],
});
