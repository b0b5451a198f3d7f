package programados

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	s3types "github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
	sestypes "github.com/aws/aws-sdk-go-v2/service/sesv2/types"
)

// AlmacenS3 is the bucket of the template (ERP_REPORTES_BUCKET): private,
// encrypted, old files expired by a lifecycle rule.
type AlmacenS3 struct {
	Cliente *s3.Client
	Bucket  string
}

// Guardar puts the object (encrypted at rest with the bucket's key).
func (a AlmacenS3) Guardar(ctx context.Context, key, contentType string, datos []byte) error {
	if err := revisarClave(key); err != nil {
		return err
	}
	_, err := a.Cliente.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(a.Bucket), Key: aws.String(key),
		Body: bytes.NewReader(datos), ContentType: aws.String(contentType), ContentLength: aws.Int64(int64(len(datos))),
		ServerSideEncryption: s3types.ServerSideEncryptionAes256})
	if err != nil {
		return fmt.Errorf("programados: s3 put %s: %w", key, err)
	}
	return nil
}

// Leer gets the object.
func (a AlmacenS3) Leer(ctx context.Context, key string) ([]byte, error) {
	if err := revisarClave(key); err != nil {
		return nil, err
	}
	out, err := a.Cliente.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(a.Bucket), Key: aws.String(key)})
	var nk *s3types.NoSuchKey
	if errors.As(err, &nk) {
		return nil, ErrArchivoNoExiste
	}
	if err != nil {
		return nil, fmt.Errorf("programados: s3 get %s: %w", key, err)
	}
	defer out.Body.Close()
	b, err := io.ReadAll(out.Body)
	if err != nil {
		return nil, fmt.Errorf("programados: s3 get %s: %w", key, err)
	}
	return b, nil
}

// CorreoSES sends through SES v2 from a verified identity
// (ERP_CORREO_REMITENTE).
type CorreoSES struct {
	Cliente   *sesv2.Client
	Remitente string
}

// Enviar sends one plain-text message to every recipient.
func (c CorreoSES) Enviar(ctx context.Context, m Mensaje) error {
	utf8 := aws.String("UTF-8")
	_, err := c.Cliente.SendEmail(ctx, &sesv2.SendEmailInput{
		FromEmailAddress: aws.String(c.Remitente),
		Destination:      &sestypes.Destination{ToAddresses: m.Para},
		Content: &sestypes.EmailContent{Simple: &sestypes.Message{
			Subject: &sestypes.Content{Data: aws.String(m.Asunto), Charset: utf8},
			Body:    &sestypes.Body{Text: &sestypes.Content{Data: aws.String(m.Texto), Charset: utf8}},
		}},
	})
	if err != nil {
		return fmt.Errorf("programados: ses: %w", err)
	}
	return nil
}
