package webhooks

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/eventos"
)

// Webhook is a subscription as the API shows it. Secreto is present only in
// the answers to creation and regeneration; every other read shows the
// masked SecretoEnmascarado.
type Webhook struct {
	ID                 int64      `json:"id"`
	EmpresaID          int64      `json:"empresa_id"`
	Nombre             string     `json:"nombre"`
	URL                string     `json:"url"`
	Eventos            []string   `json:"eventos"`
	Descripcion        *string    `json:"descripcion"`
	TimeoutSegundos    int        `json:"timeout_segundos"`
	MaxReintentos      int        `json:"max_reintentos"`
	Secreto            string     `json:"secreto,omitempty"`
	SecretoEnmascarado string     `json:"secreto_enmascarado"`
	FallosConsecutivos int        `json:"fallos_consecutivos"`
	DesactivadoEn      *time.Time `json:"desactivado_en"`
	Activo             bool       `json:"activo"`
	CreadoEn           time.Time  `json:"creado_en"`
	ActualizadoEn      time.Time  `json:"actualizado_en"`
}

const webhookCols = `w.id, w.empresa_id, w.nombre, w.url, w.eventos, w.descripcion, w.timeout_segundos, w.max_reintentos,
	w.secreto_pista, w.fallos_consecutivos, w.desactivado_en, w.activo, w.creado_en, w.actualizado_en`

func scanWebhook(row pgx.CollectableRow) (Webhook, error) {
	var w Webhook
	err := row.Scan(&w.ID, &w.EmpresaID, &w.Nombre, &w.URL, &w.Eventos, &w.Descripcion, &w.TimeoutSegundos, &w.MaxReintentos,
		&w.SecretoEnmascarado, &w.FallosConsecutivos, &w.DesactivadoEn, &w.Activo, &w.CreadoEn, &w.ActualizadoEn)
	return w, err
}

// Datos is a validated create or update body; nil pointers were not sent.
type Datos struct {
	Nombre, URL, Secreto           *string
	Descripcion                    *string
	LimpiarDescripcion             bool
	Eventos                        []string
	Activo                         *bool
	TimeoutSegundos, MaxReintentos *int
}

// Defaults of a subscription.
const (
	TimeoutPorDefecto    = 10
	ReintentosPorDefecto = 5
)

const msgNoEncontrado = "Webhook no encontrado."

// Buscar loads a subscription of the transaction's tenant.
func Buscar(ctx context.Context, tx *db.Tx, id int64) (Webhook, error) {
	rows, err := tx.Query(ctx, `select `+webhookCols+` from webhooks w where w.empresa_id = $1 and w.id = $2 and not w.eliminado`, tx.EmpresaID(), id)
	if err != nil {
		return Webhook{}, fmt.Errorf("webhooks: buscar: %w", err)
	}
	w, err := pgx.CollectExactlyOneRow(rows, scanWebhook)
	if errors.Is(err, pgx.ErrNoRows) {
		return Webhook{}, apperr.NewNotFound(msgNoEncontrado)
	}
	if err != nil {
		return Webhook{}, fmt.Errorf("webhooks: buscar: %w", err)
	}
	return w, nil
}

// NuevoSecreto is 32 random bytes, base64url, with the usual prefix.
func NuevoSecreto() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return "whsec_" + base64.RawURLEncoding.EncodeToString(b), nil
}

// enmascarar shows the prefix and the last four characters.
func enmascarar(s string) string {
	if len(s) <= 4 {
		return "••••"
	}
	return "whsec_…" + s[len(s)-4:]
}

// Suscripciones is the administration of a company's webhooks.
type Suscripciones struct {
	Cifrador   Cifrador
	Permitidos Permitidos
}

// sellar encrypts a secret for one subscription row.
func (s Suscripciones) sellar(empresaID, id int64, secreto string) ([]byte, error) {
	return s.Cifrador.Cifrar(empresaID, campoSecreto(id), []byte(secreto))
}

// Crear creates a subscription; the answer carries the secret, once.
func (s Suscripciones) Crear(ctx context.Context, tx *db.Tx, d Datos) (Webhook, error) {
	secreto := ""
	if d.Secreto != nil {
		secreto = *d.Secreto
	} else {
		var err error
		if secreto, err = NuevoSecreto(); err != nil {
			return Webhook{}, err
		}
	}
	var id int64
	if err := tx.QueryRow(ctx, `select nextval('webhooks_id_seq')`).Scan(&id); err != nil {
		return Webhook{}, fmt.Errorf("webhooks: id: %w", err)
	}
	sellado, err := s.sellar(tx.EmpresaID(), id, secreto)
	if err != nil {
		return Webhook{}, err
	}
	timeout, reintentos, activo := TimeoutPorDefecto, ReintentosPorDefecto, true
	if d.TimeoutSegundos != nil {
		timeout = *d.TimeoutSegundos
	}
	if d.MaxReintentos != nil {
		reintentos = *d.MaxReintentos
	}
	if d.Activo != nil {
		activo = *d.Activo
	}
	if _, err := tx.Exec(ctx, `insert into webhooks (id, empresa_id, nombre, url, eventos, descripcion, timeout_segundos, max_reintentos,
			secreto_cifrado, secreto_pista, activo) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
		id, tx.EmpresaID(), *d.Nombre, *d.URL, d.Eventos, d.Descripcion, timeout, reintentos, sellado, enmascarar(secreto), activo); err != nil {
		return Webhook{}, fmt.Errorf("webhooks: crear: %w", err)
	}
	w, err := Buscar(ctx, tx, id)
	w.Secreto = secreto
	return w, err
}

// Actualizar changes the fields sent. Reactivating clears the failure count.
func (s Suscripciones) Actualizar(ctx context.Context, tx *db.Tx, id int64, d Datos) (Webhook, error) {
	cur, err := Buscar(ctx, tx, id)
	if err != nil {
		return Webhook{}, err
	}
	var sellado []byte
	var pista *string
	if d.Secreto != nil {
		if sellado, err = s.sellar(tx.EmpresaID(), id, *d.Secreto); err != nil {
			return Webhook{}, err
		}
		p := enmascarar(*d.Secreto)
		pista = &p
	}
	reactivar := d.Activo != nil && *d.Activo && !cur.Activo
	if _, err := tx.Exec(ctx, `update webhooks set nombre = coalesce($3, nombre), url = coalesce($4, url),
			eventos = coalesce($5, eventos),
			descripcion = case when $6 then null else coalesce($7, descripcion) end,
			timeout_segundos = coalesce($8, timeout_segundos), max_reintentos = coalesce($9, max_reintentos),
			activo = coalesce($10, activo),
			secreto_cifrado = coalesce($11, secreto_cifrado), secreto_pista = coalesce($12, secreto_pista),
			fallos_consecutivos = case when $13 then 0 else fallos_consecutivos end,
			desactivado_en = case when $13 then null else desactivado_en end
			where empresa_id = $1 and id = $2 and not eliminado`,
		tx.EmpresaID(), id, d.Nombre, d.URL, d.Eventos, d.LimpiarDescripcion, d.Descripcion, d.TimeoutSegundos, d.MaxReintentos,
		d.Activo, sellado, pista, reactivar); err != nil {
		return Webhook{}, fmt.Errorf("webhooks: actualizar: %w", err)
	}
	return Buscar(ctx, tx, id)
}

// Eliminar soft-deletes a subscription; its pending deliveries end. Of
// two concurrent deletions one wins and the other finds nothing (404): the
// update itself checks the row is not deleted yet, after waiting for the
// other's lock.
func Eliminar(ctx context.Context, tx *db.Tx, id int64) error {
	b := &pgx.Batch{}
	b.Queue(`update webhooks set activo = false, eliminado = true where empresa_id = $1 and id = $2 and not eliminado returning id`,
		tx.EmpresaID(), id)
	b.Queue(`update webhook_entregas set estado = 'fallida', proximo_intento_en = null
		where empresa_id = $1 and webhook_id = $2 and estado = 'pendiente'`, tx.EmpresaID(), id)
	res := tx.SendBatch(ctx, b)
	var got int64
	err := res.QueryRow().Scan(&got)
	if cerr := res.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return apperr.NewNotFound(msgNoEncontrado)
	}
	if err != nil {
		return fmt.Errorf("webhooks: eliminar: %w", err)
	}
	return nil
}

// RegenerarSecreto replaces the secret and returns the new one, once.
func (s Suscripciones) RegenerarSecreto(ctx context.Context, tx *db.Tx, id int64) (Webhook, error) {
	secreto, err := NuevoSecreto()
	if err != nil {
		return Webhook{}, err
	}
	w, err := s.Actualizar(ctx, tx, id, Datos{Secreto: &secreto})
	w.Secreto = secreto
	return w, err
}

// Evento is one subscribable event: its name, what emits it and a sample.
type Evento struct {
	Nombre      string         `json:"nombre"`
	Descripcion string         `json:"descripcion"`
	Ejemplo     map[string]any `json:"ejemplo"`
}

// Catalogo lists the events a subscription may name ("*" is every one).
var Catalogo = []Evento{
	{eventos.VentaCreada, "Se creó una venta (el cuerpo es la venta tal como la muestra la API).",
		map[string]any{"id": 1, "numero_comprobante": "FAC-00000001", "estado": "pendiente", "monto_total": "3955.00", "cliente_id": 1}},
	{eventos.ClienteCreado, "Se creó un cliente.",
		map[string]any{"id": 1, "tipo_identificacion": "fisica", "identificacion": "109870654", "nombre_completo": "María Fernández Rojas"}},
	{eventos.PagoRecibido, "Se registró un pago de una cuenta por cobrar.",
		map[string]any{"id": 1, "cuenta_por_cobrar_id": 1, "monto": "1000.00", "fecha": "2026-11-21"}},
	{eventos.FacturaEmitida, "Hacienda aceptó un comprobante electrónico.",
		map[string]any{"id": 1, "clave": "50624112600310100000100100001010000000001112345678", "estado": "accepted", "venta_id": 1}},
	{eventos.InventarioBajo, "Las existencias de un producto quedaron por debajo de su mínimo tras una salida.",
		map[string]any{"producto_id": 1, "codigo": "ARROZ-1KG", "almacen_id": 1, "cantidad_disponible": "4.000", "stock_minimo": "5"}},
	{eventos.PlanillaPagada, "Una planilla se marcó como pagada y se contabilizó (el cuerpo es la planilla con sus totales y líneas).",
		map[string]any{"id": 1, "numero": "PLA-000001", "tipo": "mensual", "fecha_inicio": "2026-03-01", "fecha_fin": "2026-03-31",
			"estado": "pagada", "fecha_pago": "2026-03-31", "asiento_numero": "AS-2026-000001",
			"totales": map[string]any{"salario_bruto": "1500000.00", "salario_neto": "1271700.00"}}},
	{EventoDesactivado, "Una suscripción se desactivó tras 20 entregas fallidas consecutivas.",
		map[string]any{"webhook_id": 1, "nombre": "ERP contable", "url": "https://hooks.example.com/erp", "fallos_consecutivos": 20}},
}

// EventoConocido reports whether name can be subscribed.
func EventoConocido(name string) bool {
	if name == "*" {
		return true
	}
	for _, e := range Catalogo {
		if e.Nombre == name {
			return true
		}
	}
	return false
}
