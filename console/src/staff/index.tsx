import { useState } from "react";
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField as MuiTextField, Typography } from "@mui/material";
import {
  BooleanField,
  BooleanInput,
  Create,
  Datagrid,
  DateField,
  Edit,
  List,
  SelectArrayInput,
  SimpleForm,
  TextField,
  TextInput,
  TopToolbar,
  required,
  useRedirect,
  useTranslate,
  FunctionField,
} from "react-admin";
import { StaffAction } from "../common/StaffAction.tsx";
import { STAFF_ROLES } from "../../../server/src/contract/staff.ts";
import { choicesOf } from "../common/choices.ts";

const ROLES = choicesOf(STAFF_ROLES);

interface Credentials {
  username: string;
  password: string;
  totpSecret: string;
  otpauthUri: string;
}

/** The new password and one-time-code secret, shown this once. */
function CredentialsDialog({ creds, onClose }: { creds: Credentials | null; onClose: () => void }) {
  const translate = useTranslate();
  return (
    <Dialog open={creds !== null} onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{creds?.username}</DialogTitle>
      <DialogContent>
        <Typography color="warning.main" sx={{ mb: 1 }}>
          {translate("console.notify.credentials")}
        </Typography>
        <MuiTextField
          margin="dense"
          fullWidth
          label={translate("console.field.password")}
          value={creds?.password ?? ""}
          slotProps={{ input: { readOnly: true } }}
          name="new-password"
        />
        <MuiTextField
          margin="dense"
          fullWidth
          label={translate("console.field.totpSecret")}
          value={creds?.totpSecret ?? ""}
          slotProps={{ input: { readOnly: true } }}
          name="new-totp"
        />
        <MuiTextField
          margin="dense"
          fullWidth
          label={translate("console.field.otpauthUri")}
          value={creds?.otpauthUri ?? ""}
          slotProps={{ input: { readOnly: true } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate("ra.action.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}

function StaffCreate() {
  const [creds, setCreds] = useState<Credentials | null>(null);
  const redirect = useRedirect();
  return (
    <>
      <Create mutationOptions={{ onSuccess: (data) => setCreds(data as unknown as Credentials) }} redirect={false}>
        <SimpleForm>
          <TextInput source="username" validate={required()} />
          <SelectArrayInput source="roles" choices={ROLES} validate={required()} />
        </SimpleForm>
      </Create>
      <CredentialsDialog
        creds={creds}
        onClose={() => {
          setCreds(null);
          redirect("list", "staff");
        }}
      />
    </>
  );
}

function StaffEdit() {
  const [creds, setCreds] = useState<Credentials | null>(null);
  return (
    <>
      <Edit
        mutationMode="pessimistic"
        actions={
          <TopToolbar>
            <StaffAction
              resource="staff"
              path="reset-password"
              can={["update", "Staff"]}
              label="console.action.reset_password"
              color="warning"
              onDone={(r) => setCreds(r as Credentials)}
            />
          </TopToolbar>
        }
      >
        <SimpleForm>
          <TextField source="username" />
          <SelectArrayInput source="roles" choices={ROLES} validate={required()} />
          <BooleanInput source="active" />
        </SimpleForm>
      </Edit>
      <CredentialsDialog creds={creds} onClose={() => setCreds(null)} />
    </>
  );
}

export const staff = {
  list: () => (
    <List sort={{ field: "id", order: "ASC" }}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="id" />
        <TextField source="username" />
        <FunctionField source="roles" render={(r: { roles: string[] }) => r.roles.join(", ")} />
        <BooleanField source="active" />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </List>
  ),
  create: StaffCreate,
  edit: StaffEdit,
};
