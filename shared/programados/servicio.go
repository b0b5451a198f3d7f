package programados

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"

	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/plataforma"
)

// Environment of the service (set by the template in AWS; make run uses
// the defaults).
const (
	// EnvBucket names the S3 bucket of the files; unset: EnvDir.
	EnvBucket = "ERP_REPORTES_BUCKET"
	// EnvDir is the local folder of the files (default .data/reportes).
	EnvDir = "ERP_REPORTES_DIR"
	// EnvRemitente is the SES sender (a verified identity); unset: the
	// e-mails are .eml files in EnvCorreoDir, and a log line.
	EnvRemitente = "ERP_CORREO_REMITENTE"
	// EnvCorreoDir is the local mail folder (default .data/correo).
	EnvCorreoDir = "ERP_CORREO_DIR"
	// EnvURL is the API's public base URL, for the links of the e-mails
	// (default http://localhost:<PORT>).
	EnvURL = "ERP_URL_PUBLICA"
)

// Servicio serves /api/reportes-programados and runs the due schedules.
// One per process: the HTTP group and the scheduler share it, so tests
// replace its clock, store and mail once for both.
type Servicio struct {
	DB      *db.DB
	Almacen Almacen
	Correo  Correo
	// Ahora is the clock: the next run of a schedule written and the due
	// ones of a sweep are computed from it.
	Ahora func() time.Time
	Log   *slog.Logger
	// URLBase prefixes the download links of the e-mails.
	URLBase string
}

func (s *Servicio) ahora() time.Time {
	if s.Ahora != nil {
		return s.Ahora()
	}
	return time.Now()
}

func (s *Servicio) log() *slog.Logger { return cmp.Or(s.Log, slog.Default()) }

// Nuevo builds the service from the environment: S3 and SES when
// ERP_REPORTES_BUCKET and ERP_CORREO_REMITENTE are set (AWS), the local
// folders otherwise (make run).
func Nuevo(d *plataforma.Deps) *Servicio {
	s := &Servicio{DB: d.DB, Log: d.Log, URLBase: strings.TrimRight(os.Getenv(EnvURL), "/")}
	if s.URLBase == "" {
		s.URLBase = fmt.Sprintf("http://localhost:%d", d.Cfg.Port)
	}
	bucket, remitente := os.Getenv(EnvBucket), os.Getenv(EnvRemitente)
	if bucket != "" || remitente != "" {
		awsCfg, err := d.AWSConfig(context.Background())
		if err != nil {
			d.Log.Error("reportes programados: configuración de AWS", "error", err.Error())
		} else {
			if bucket != "" {
				s.Almacen = AlmacenS3{Cliente: s3.NewFromConfig(awsCfg), Bucket: bucket}
			}
			if remitente != "" {
				s.Correo = CorreoSES{Cliente: sesv2.NewFromConfig(awsCfg), Remitente: remitente}
			}
		}
	}
	if s.Almacen == nil {
		s.Almacen = AlmacenLocal{Dir: entorno(EnvDir, ".data/reportes")}
	}
	if s.Correo == nil && os.Getenv("AWS_LAMBDA_FUNCTION_NAME") != "" {
		// In AWS without a sender (template parameter ReportesRemitente
		// empty) the e-mails are only logged: the files are still listed.
		s.Correo = CorreoLog{Log: d.Log}
	}
	if s.Correo == nil {
		s.Correo = &CorreoLocal{Dir: entorno(EnvCorreoDir, ".data/correo"), Remitente: "reportes@erp.local", Log: d.Log}
	}
	return s
}

func entorno(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}
