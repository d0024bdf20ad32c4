import { useEffect, useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { hasReceipt, userOrders, type UserOrder } from "./account.api.ts";

const STATUS_COLOR: Record<string, "success" | "warning" | "error" | "default" | "info"> = {
  paid: "success",
  pending: "warning",
  "3ds_pending": "warning",
  failed: "error",
  refunded: "info",
};

/** My purchases: every order, newest first, with its status, pack, price, provider and date; a receipt for paid ones. */
export default function PurchasesSection() {
  const { t, i18n } = useTranslation();
  const [orders, setOrders] = useState<UserOrder[] | null>(null);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(1);

  useEffect(() => {
    userOrders(page)
      .then((r) => {
        setOrders((prev) => (page === 1 ? r.list : [...(prev ?? []), ...r.list]));
        setTotal(r.total);
      })
      .catch(() => setOrders((prev) => prev ?? []));
  }, [page]);
  if (!orders) return null;
  if (orders.length === 0) return <Typography color="text.secondary">{t("account.purchases.none")}</Typography>;

  const date = (iso: string) => new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium" }).format(new Date(iso));
  return (
    <Box sx={{ display: "grid", gap: 1 }} data-testid="purchases">
      {orders.map((o) => (
        <Box
          key={o.order_id}
          data-testid="purchase"
          data-status={o.order_status}
          sx={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: 1, py: 1, borderBottom: "1px solid", borderColor: "divider" }}
        >
          <Box sx={{ flex: "1 1 180px", minWidth: 0 }}>
            <Typography sx={{ fontWeight: 600 }}>{o.product_name ?? t("account.purchases.unknownPack")}</Typography>
            <Typography variant="body2" color="text.secondary">
              {date(o.created_at)} · {t(`payments.provider.${o.provider}`, { defaultValue: o.provider })}
            </Typography>
          </Box>
          <Typography sx={{ fontWeight: 700 }}>{o.final_price_text}</Typography>
          <Chip size="small" color={STATUS_COLOR[o.order_status] ?? "default"} label={t(`account.purchases.status.${o.order_status}`)} />
          {hasReceipt(o) && (
            <Button size="small" component={RouterLink} to={`/account/receipt/${o.order_id}`} data-testid="receipt-link">
              {t("account.purchases.receipt")}
            </Button>
          )}
        </Box>
      ))}
      {orders.length < total && (
        <Button onClick={() => setPage((p) => p + 1)} data-testid="purchases-more">
          {t("account.purchases.more")}
        </Button>
      )}
    </Box>
  );
}
