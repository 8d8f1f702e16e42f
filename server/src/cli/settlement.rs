//! `paylink boleto remessa|retorno` and `paylink installment mark-paid`:
//! settlement with the bank through CNAB 240 files, and by hand.

use crate::cli::common::{BoletoArgs, DbArg};
use std::path::PathBuf;

use paylink_model::Date;

use super::common::{open, Failure};
use crate::domain::cnab240::Beneficiary;
use crate::domain::settlement::{self, SettlementError};
use crate::store::boletos::Applied;
use crate::store::payments::{self, LifecycleError};

#[derive(clap::Subcommand)]
pub enum BoletoCommand {
    /// Write a CNAB 240 remessa registering every boleto not yet sent and asking
    /// the bank to write off (baixa) those whose invoice was cancelled or whose
    /// installment was paid another way; each is marked with the file, so none
    /// is sent twice.
    Remessa(Box<RemessaArgs>),
    /// Apply a CNAB 240 retorno (segments T and U): registrations, payments
    /// (CONFIRMED, PAYMENT_CONFIRMED) and write-offs; all or nothing.
    Retorno {
        /// The retorno file the bank returned.
        file: PathBuf,
        #[command(flatten)]
        db: DbArg,
    },
}

#[derive(clap::Args)]
pub struct RemessaArgs {
    /// Where to write the remessa (not overwritten if it exists).
    #[arg(long)]
    out: PathBuf,
    /// Only installments created on or after this day (dd/mm/aaaa or aaaa-mm-dd, UTC).
    #[arg(long)]
    since: Option<String>,
    /// The merchant's CNPJ or CPF (the beneficiário of the file's headers).
    #[arg(long)]
    merchant_document: Option<String>,
    /// Merchant name in the file's headers.
    #[arg(long)]
    merchant_name: Option<String>,
    #[command(flatten)]
    boleto: BoletoArgs,
    /// Agência/Código do Beneficiário as your bank prints it, e.g. "1234-5 / 12345-6":
    /// the agency and account of the file's headers and segment P.
    #[arg(long)]
    boleto_beneficiary_code: Option<String>,
    #[command(flatten)]
    db: DbArg,
}

#[derive(clap::Subcommand)]
pub enum InstallmentCommand {
    /// Settle an installment by hand (cash, a transfer, a check): CONFIRMED
    /// with the amount and date given; fires PAYMENT_CONFIRMED.
    MarkPaid {
        invoice_id: String,
        /// The installment's number (1, 2, ...).
        #[arg(long)]
        installment: u32,
        /// The amount received, in reais: 33,34 or 1.000,00 or 33.34.
        #[arg(long)]
        amount: String,
        /// The day it was received: dd/mm/aaaa or aaaa-mm-dd (not in the future).
        #[arg(long)]
        date: String,
        #[command(flatten)]
        db: DbArg,
    },
}

fn usage(message: impl std::fmt::Display) -> Failure {
    Failure::Usage(message.to_string())
}

/// dd/mm/aaaa or aaaa-mm-dd.
fn parse_date(s: &str, flag: &str) -> Result<Date, Failure> {
    let s = s.trim();
    Date::parse_br(s)
        .or_else(|| Date::parse_iso(s))
        .ok_or_else(|| {
            usage(format!(
                "{flag} {s:?} is not a date (dd/mm/aaaa or aaaa-mm-dd)"
            ))
        })
}

/// "1234-5 / 12345-6" → (agency, its digit, account, its digit).
fn agency_account(code: &str) -> Result<(String, String, String, String), Failure> {
    let bad = || {
        usage(format!(
            "--boleto-beneficiary-code {code:?} is not like \"1234-5 / 12345-6\" (agency / account)"
        ))
    };
    let part = |p: &str| -> Option<(String, String)> {
        let (n, dv) = p.trim().split_once('-').unwrap_or((p.trim(), ""));
        let ok = !n.is_empty()
            && n.bytes().all(|b| b.is_ascii_digit())
            && dv.len() <= 1
            && dv.bytes().all(|b| b.is_ascii_alphanumeric());
        ok.then(|| (n.to_string(), dv.to_string()))
    };
    let (a, c) = code.split_once('/').ok_or_else(bad)?;
    let (agency, agency_dv) = part(a).filter(|(n, _)| n.len() <= 5).ok_or_else(bad)?;
    let (account, account_dv) = part(c).filter(|(n, _)| n.len() <= 12).ok_or_else(bad)?;
    Ok((agency, agency_dv, account, account_dv))
}

/// Now in Brasília: the date and hhmmss of the file's header.
fn brasilia_now() -> (Date, u32) {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    let local = secs + paylink_model::date::BRASILIA_UTC_OFFSET_SECS;
    let of_day = local.rem_euclid(86_400) as u32;
    let hhmmss = of_day / 3600 * 10_000 + of_day % 3600 / 60 * 100 + of_day % 60;
    (crate::domain::today(), hhmmss)
}

/// `paylink boleto ...`
pub async fn boleto(command: BoletoCommand) -> Result<(), Failure> {
    match command {
        BoletoCommand::Remessa(args) => remessa(*args).await,
        BoletoCommand::Retorno { file, db } => {
            let bytes = std::fs::read(&file)
                .map_err(|e| usage(format!("cannot read {}: {e}", file.display())))?;
            let db = open(&db).await?;
            match settlement::retorno(&db, &bytes)
                .await
                .map_err(|e| e.to_string())?
            {
                Applied::Before(at) => {
                    println!("{} was applied on {at}; nothing changed", file.display());
                }
                Applied::Now(report) => {
                    for line in &report {
                        println!("{line}");
                    }
                    println!("{}: {} notices applied", file.display(), report.len());
                }
            }
            Ok(())
        }
    }
}

async fn remessa(args: RemessaArgs) -> Result<(), Failure> {
    // The file goes to the bank: every part of the beneficiário is asked for, none made up.
    let mut missing = Vec::new();
    let cfg = args.boleto.config(false, &mut missing).map_err(usage)?;
    let name = args
        .merchant_name
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty());
    if name.is_none() {
        missing.push("merchant-name");
    }
    if args.merchant_document.is_none() {
        missing.insert(0, "merchant-document");
    }
    if !missing.is_empty() {
        let list: Vec<String> = missing
            .iter()
            .map(|long| format!("--{long} ({})", super::config::variable_of(long)))
            .collect();
        return Err(usage(format!(
            "a remessa names the beneficiário to the bank: set {}",
            list.join(", ")
        )));
    }
    let (Some(document), Some(name)) = (args.merchant_document.as_deref(), name) else {
        unreachable!("both were checked above");
    };
    let document = paylink_model::br::check_document(document).map_err(|_| {
        usage(format!(
            "--merchant-document {document:?} is not a valid CNPJ or CPF"
        ))
    })?;
    let (agency, agency_dv, account, account_dv) = match args.boleto_beneficiary_code.as_deref() {
        Some(code) if !code.trim().is_empty() => agency_account(code)?,
        _ => Default::default(),
    };
    let since = args
        .since
        .as_deref()
        .map(|s| parse_date(s, "--since"))
        .transpose()?;
    if args.out.exists() {
        return Err(usage(format!(
            "{} exists already: paylink does not overwrite a remessa",
            args.out.display()
        )));
    }
    let beneficiary = Beneficiary {
        bank_name: crate::domain::payer::bank_name(&cfg.bank_code),
        bank_code: cfg.bank_code.clone(),
        document,
        name: name.to_string(),
        agreement: cfg.agreement.clone(),
        agency,
        agency_dv,
        account,
        account_dv,
        // Código da carteira of segment P: 1, cobrança simples (the bank's
        // own carteira number, --boleto-wallet, is in the nosso número's boleto).
        wallet: 1,
    };
    let db = open(&args.db).await?;
    let out = args.out.clone();
    let partial = out.with_extension("partial");
    let written = settlement::remessa(&db, &beneficiary, &cfg, since, brasilia_now(), |text| {
        std::fs::write(&partial, text).map_err(|e| {
            SettlementError::Write(format!(
                "cannot write {}: {e}: nothing was sent",
                partial.display()
            ))
        })
    })
    .await;
    let written = match written {
        Ok(w) => w,
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            return Err(Failure::Runtime(e.to_string()));
        }
    };
    let Some(w) = written else {
        println!(
            "no boleto to register or write off: {} not written",
            out.display()
        );
        return Ok(());
    };
    std::fs::rename(&partial, &out).map_err(|e| {
        format!(
            "remessa {} is recorded but could not be moved from {} to {}: {e}",
            w.sequence,
            partial.display(),
            out.display()
        )
    })?;
    println!(
        "remessa {} written to {}: {} boletos registered, {} written off",
        w.sequence,
        out.display(),
        w.boletos,
        w.write_offs
    );
    Ok(())
}

/// `paylink installment ...`
pub async fn installment(command: InstallmentCommand) -> Result<(), Failure> {
    let InstallmentCommand::MarkPaid {
        invoice_id,
        installment,
        amount,
        date,
        db,
    } = command;
    let cents = paylink_model::money::parse_price_input(&amount)
        .filter(|c| *c > 0)
        .ok_or_else(|| {
            usage(format!(
                "--amount {amount:?} is not an amount in reais, like 33,34 or 1.000,00"
            ))
        })?;
    let paid_on = parse_date(&date, "--date")?;
    if paid_on > crate::domain::today() {
        return Err(usage(format!("--date {date} is in the future")));
    }
    if installment == 0 {
        return Err(usage("--installment counts from 1"));
    }
    let db = open(&db).await?;
    // The API's rules: a day from the invoice's creation to today, at most what is due.
    let invoice_id = invoice_id.to_ascii_lowercase();
    // Its owner, then the detail as that application reads it (`find` leaves a cancelled one out).
    let detail = match crate::store::invoices::owner(&db, &invoice_id).await {
        Ok(Some(app)) => crate::store::invoice_detail::find(&db, &app.id, &invoice_id, "").await,
        Ok(None) => Ok(None),
        Err(e) => Err(e),
    }
    .map_err(|e| Failure::Runtime(format!("database error: {e}")))?
    .ok_or_else(|| usage(format!("invoice not found: {invoice_id}")))?;
    let req = paylink_model::actions::ManualPaymentRequest {
        amount: Some(paylink_model::money::cents_to_reais(cents)),
        paid_on: Some(paid_on.to_string()),
    };
    let today = crate::domain::today();
    match paylink_model::installment_due::check_manual_payment(&detail, installment, &req, today) {
        Ok(_) => {}
        Err(paylink_model::installment_due::PaymentRefused::NoInstallment) => {
            return Err(usage(format!(
                "invoice {invoice_id} has no installment {installment}"
            )))
        }
        Err(paylink_model::installment_due::PaymentRefused::Invalid(v)) => {
            let flag = |field: &str| {
                if field == "amount" {
                    "--amount"
                } else {
                    "--date"
                }
            };
            let said: Vec<String> =
                v.0.iter()
                    .map(|(field, msg)| {
                        format!("{}: {}", flag(field), msg.render(paylink_model::Lang::En))
                    })
                    .collect();
            return Err(usage(said.join("; ")));
        }
    }
    let paid = payments::mark_paid(&db, &invoice_id, installment, cents, paid_on)
        .await
        .map_err(|e| match e {
            LifecycleError::Db(e) => Failure::Runtime(format!("database error: {e}")),
            e => Failure::Usage(e.to_string()),
        })?;
    println!(
        "installment {} is now {}, paid {} on {paid_on}",
        paid.installment,
        paid.status,
        paylink_model::money::format_brl(cents, paylink_model::Lang::PtBr)
    );
    Ok(())
}
