// Package horacr is Costa Rica's civil time, written once: the companies'
// "today", the day a document is dated and the hour a schedule runs are all
// counted there, not in the server's UTC.
//
// Costa Rica keeps UTC-6 all year (no daylight saving since 1992), so a fixed
// zone is exact and needs no tz database in the Lambda image.
package horacr

import "time"

// Zona is Costa Rica's time zone.
var Zona = time.FixedZone("America/Costa_Rica", -6*60*60)

// HoySQL is today's date in Costa Rica in SQL, for statements that count
// ages, expirations or due dates to the local day.
const HoySQL = `(now() at time zone 'America/Costa_Rica')::date`

// Fecha is the Costa Rican calendar day of instant t, at midnight UTC: the
// form in which the API parses dates, so that AddDate, comparisons and
// Format are plain calendar arithmetic.
func Fecha(t time.Time) time.Time {
	y, m, d := t.In(Zona).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// Hoy is today's date in Costa Rica (Fecha of now).
func Hoy() time.Time { return Fecha(time.Now()) }
