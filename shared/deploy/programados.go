package deploy

// The scheduled reports (issue 14, shared/programados): the bucket of the
// generated files, the scheduler's right to write them and to send the
// e-mails, and the programados function's right to read them back for
// the download route. Nothing else may touch the bucket.

// Logical ids and names of the scheduled reports' resources.
const (
	reportesBucketID       = "ReportesProgramadosBucket"
	reportesBucketPolicyID = "ReportesProgramadosBucketPolicy"
	reportesRemitenteParam = "ReportesRemitente"
	reportesRetencionParam = "ReportesRetencionDias"
	// reportesEscritor runs the schedules (writes files, sends e-mail);
	// reportesLector serves the download route.
	reportesEscritor = "scheduler"
	reportesLector   = "programados"
)

// reportesParameters are the sender and the files' retention.
func reportesParameters(p *mapping) {
	p.set(reportesRemitenteParam, param("String", "Sender of the scheduled reports' e-mails (an SES-verified identity, e.g. "+
		"reportes@example.cr); empty: the scheduler only logs the e-mails it would send (the files are still stored and listed).",
		"Default", quoted("")))
	p.set(reportesRetencionParam, param("Number", "Days the scheduled reports' files are kept in their bucket before the "+
		"lifecycle rule expires them (a later download answers 404).",
		"Default", "90", "MinValue", "1", "MaxValue", "3650"))
}

// reportesResources are the bucket (private, encrypted, owner-enforced,
// old files expired) and its policy refusing any request without TLS.
func reportesResources(resources *mapping) {
	sse := &mapping{}
	sse.set("SSEAlgorithm", "AES256")
	rule := &mapping{}
	rule.set("ServerSideEncryptionByDefault", sse)
	rule.set("BucketKeyEnabled", "true")
	enc := &mapping{}
	enc.set("ServerSideEncryptionConfiguration", sequence{rule})

	block := &mapping{}
	for _, k := range []string{"BlockPublicAcls", "BlockPublicPolicy", "IgnorePublicAcls", "RestrictPublicBuckets"} {
		block.set(k, "true")
	}
	owner := &mapping{}
	owner.set("ObjectOwnership", "BucketOwnerEnforced")
	ownership := &mapping{}
	ownership.set("Rules", sequence{owner})

	abort := &mapping{}
	abort.set("DaysAfterInitiation", "1")
	expire := &mapping{}
	expire.set("Id", "ExpirarReportes")
	expire.set("Status", "Enabled")
	expire.set("ExpirationInDays", "!Ref "+reportesRetencionParam)
	expire.set("AbortIncompleteMultipartUpload", abort)
	lifecycle := &mapping{}
	lifecycle.set("Rules", sequence{expire})

	props := &mapping{}
	props.set("BucketEncryption", enc)
	props.set("PublicAccessBlockConfiguration", block)
	props.set("OwnershipControls", ownership)
	props.set("LifecycleConfiguration", lifecycle)
	bucket := &mapping{}
	bucket.set("Type", "AWS::S3::Bucket")
	// The files outlive a stack deleted by mistake; the lifecycle rule
	// still expires them.
	bucket.set("DeletionPolicy", "Retain")
	bucket.set("UpdateReplacePolicy", "Retain")
	bucket.set("Properties", props)
	resources.set(reportesBucketID, bucket)

	secure := &mapping{}
	secure.set("aws:SecureTransport", quoted("false"))
	cond := &mapping{}
	cond.set("Bool", secure)
	principal := &mapping{}
	principal.set("AWS", quoted("*"))
	deny := &mapping{}
	deny.set("Sid", "SoloTLS")
	deny.set("Effect", "Deny")
	deny.set("Principal", principal)
	deny.set("Action", quoted("s3:*"))
	deny.set("Resource", sequence{"!GetAtt " + reportesBucketID + ".Arn", `!Sub "${` + reportesBucketID + `.Arn}/*"`})
	deny.set("Condition", cond)
	doc := &mapping{}
	doc.set("Version", quoted("2012-10-17"))
	doc.set("Statement", sequence{deny})
	pprops := &mapping{}
	pprops.set("Bucket", "!Ref "+reportesBucketID)
	pprops.set("PolicyDocument", doc)
	resources.set(reportesBucketPolicyID, typed("AWS::S3::BucketPolicy", pprops))
}

// reportesStatement is an inline policy of one Allow statement.
func reportesStatement(action, resource string, condition *mapping) *mapping {
	st := &mapping{}
	st.set("Effect", "Allow")
	st.set("Action", sequence{quoted(action)})
	st.set("Resource", resource)
	if condition != nil {
		st.set("Condition", condition)
	}
	pol := &mapping{}
	pol.set("Statement", sequence{st})
	return pol
}

// reportesFunction adds the bucket's name, and the least privilege each
// function needs, to the scheduler (s3:PutObject, ses:SendEmail from the
// configured sender only, the API's URL for the e-mails' links) and to
// the programados function (s3:GetObject).
func reportesFunction(name string, vars *mapping, policies sequence) sequence {
	objetos := `!Sub "${` + reportesBucketID + `.Arn}/*"`
	switch name {
	case reportesEscritor:
		vars.set("ERP_REPORTES_BUCKET", "!Ref "+reportesBucketID)
		vars.set("ERP_CORREO_REMITENTE", "!Ref "+reportesRemitenteParam)
		vars.set("ERP_URL_PUBLICA", `!Sub "https://${`+apiLogicalID+`}.execute-api.${AWS::Region}.${AWS::URLSuffix}"`)
		from := &mapping{}
		from.set("ses:FromAddress", "!Ref "+reportesRemitenteParam)
		sesCond := &mapping{}
		sesCond.set("StringEquals", from)
		policies = append(policies,
			reportesStatement("s3:PutObject", objetos, nil),
			reportesStatement("ses:SendEmail", `!Sub "arn:${AWS::Partition}:ses:${AWS::Region}:${AWS::AccountId}:identity/*"`, sesCond))
	case reportesLector:
		vars.set("ERP_REPORTES_BUCKET", "!Ref "+reportesBucketID)
		policies = append(policies, reportesStatement("s3:GetObject", objetos, nil))
	}
	return policies
}

// reportesOutputs names the bucket.
func reportesOutputs(o *mapping) {
	o.set(reportesBucketID+"Name", output("Bucket of the scheduled reports' files", "!Ref "+reportesBucketID))
}
