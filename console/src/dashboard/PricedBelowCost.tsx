import { Alert, Card, CardContent, CardHeader, List, ListItem, ListItemText } from "@mui/material";
import { Link, useTranslate } from "react-admin";
import { useLocalName } from "../common/fields.tsx";
import { useGpuCostRows } from "../templates/GpuCosts.tsx";

/**
 * Templates whose measured GPU cost per unit exceeds their price (issue 45): flagged where staff look first, not only on
 * each template's edit page, with a link to raise the price. Shows nothing while every template earns its cost.
 */
export function PricedBelowCost() {
  const translate = useTranslate();
  const named = useLocalName();
  const rows = useGpuCostRows()?.filter((r) => r.loss) ?? [];
  if (rows.length === 0) return null;
  return (
    <Card sx={{ flex: "1 1 100%", minWidth: 0 }} data-testid="priced-below-cost">
      <CardHeader title={translate("console.dashboard.belowCost.title")} titleTypographyProps={{ variant: "subtitle1" }} />
      <CardContent sx={{ pt: 0 }}>
        <Alert severity="warning" sx={{ mb: 1 }}>
          {translate("console.dashboard.belowCost.hint")}
        </Alert>
        <List dense disablePadding>
          {rows.map((r) => (
            <ListItem key={`${r.templateId}-${r.workflow}-${r.resolution}`} disableGutters data-workflow={r.workflow}>
              <ListItemText
                primary={
                  r.templateId === null ? (
                    translate("console.engines.noTemplate")
                  ) : (
                    <Link to={`/templates/${r.templateId}`}>{r.templateName ? named(r.templateName, r.templateNames) : `#${r.templateId}`}</Link>
                  )
                }
                secondary={translate("console.dashboard.belowCost.figures", {
                  workflow: r.workflow,
                  tier: r.tier ? translate(`console.engines.gpuCosts.tiers.${r.tier}`) : "—",
                  resolution: r.resolution ?? "—",
                  cost: r.costPerUnit,
                  price: r.pricePerUnit,
                })}
                secondaryTypographyProps={{ sx: { wordBreak: "break-word" } }}
              />
            </ListItem>
          ))}
        </List>
      </CardContent>
    </Card>
  );
}
