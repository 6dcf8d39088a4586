# The R reference values: pROC, vcd, psych and R's own stats (McNemar's test)
# on the data sets of binary.csv
# and multiclass.csv (written by make_reference.py, which runs this script):
#
#   Rscript --vanilla reference.R binary.csv multiclass.csv r_values.csv
#
# Output: one row per number, columns kind (binary, multiclass or version),
# dataset, tool, scorer (a, b or empty), quantity, value; a vector is several
# rows in order.  Values are written with 17 significant digits, which
# round-trip exactly.
suppressPackageStartupMessages({
  library(pROC)
  library(vcd)
  library(psych)
})

args <- commandArgs(trailingOnly = TRUE)
binary <- read.csv(args[1], colClasses = c(dataset = "character"))
multi <- read.csv(args[2], colClasses = c(dataset = "character"))
out_path <- args[3]

rows <- list()
emit <- function(kind, dataset, tool, scorer, quantity, value) {
  value <- as.numeric(value)
  rows[[length(rows) + 1]] <<- data.frame(
    kind = kind, dataset = dataset, tool = tool, scorer = scorer,
    quantity = quantity, value = sprintf("%.17g", value),
    stringsAsFactors = FALSE)
}

# a 2x2 (or c x c) table, rows truth, columns decisions, every class present
table_of <- function(y, pred, levels) {
  unclass(table(factor(y, levels = levels), factor(pred, levels = levels)))
}

for (name in unique(binary$dataset)) {
  d <- binary[binary$dataset == name, ]
  if (any(d$weight != 1)) next  # none of these tools takes case weights
  rocs <- list()
  for (s in c("a", "b")) {
    score <- d[[paste0("score_", s)]]
    # direction fixed: higher scores mean positive (pROC would otherwise
    # flip a classifier whose AUC is below 1/2)
    r <- roc(d$y, score, levels = c(0, 1), direction = "<", quiet = TRUE)
    rocs[[s]] <- r
    emit("binary", name, "pROC", s, "auc", auc(r))
    # pROC's default: the direction chosen from the two classes' medians
    emit("binary", name, "pROC", s, "auc_direction_auto",
         auc(roc(d$y, score, levels = c(0, 1), quiet = TRUE)))
    emit("binary", name, "pROC", s, "var_delong",
         suppressWarnings(var(r, method = "delong")))
    ci <- suppressWarnings(ci.auc(r, method = "delong"))
    emit("binary", name, "pROC", s, "ci_auc_delong", as.numeric(ci))
    # ROC points from (0, 0) to (1, 1): pROC lists them by increasing threshold
    emit("binary", name, "pROC", s, "roc_fpr", rev(1 - r$specificities))
    emit("binary", name, "pROC", s, "roc_tpr", rev(r$sensitivities))

    pred <- d[[paste0("pred_", s)]]
    tab <- table_of(d$y, pred, c(1, 0))  # [1, 1] true positives
    k <- Kappa(tab)
    emit("binary", name, "vcd", s, "kappa", k$Unweighted[["value"]])
    emit("binary", name, "vcd", s, "kappa_ase", k$Unweighted[["ASE"]])
    ck <- suppressWarnings(cohen.kappa(tab))
    emit("binary", name, "psych", s, "kappa", ck$kappa)
    emit("binary", name, "psych", s, "var_kappa", ck$var.kappa)
    emit("binary", name, "psych", s, "kappa_confid",
         ck$confid["unweighted kappa", c("lower", "upper")])
    emit("binary", name, "psych", s, "phi", phi(tab, digits = 17))
  }
  test <- suppressWarnings(
    roc.test(rocs$a, rocs$b, method = "delong", paired = TRUE))
  emit("binary", name, "pROC", "", "roc_test_delong_statistic", test$statistic)
  emit("binary", name, "pROC", "", "roc_test_delong_p_value", test$p.value)
  emit("binary", name, "pROC", "", "roc_test_delong_conf_int", test$conf.int)
  emit("binary", name, "pROC", "", "roc_test_delong_estimate", test$estimate)

  # McNemar's test of the two classifiers' decisions (R's own stats package):
  # rows classifier a right / wrong, columns classifier b right / wrong
  right_a <- factor(d$pred_a == d$y, levels = c(TRUE, FALSE))
  right_b <- factor(d$pred_b == d$y, levels = c(TRUE, FALSE))
  tab <- table(right_a, right_b)
  mc <- suppressWarnings(mcnemar.test(tab, correct = TRUE))
  emit("binary", name, "stats", "", "mcnemar_test_statistic", mc$statistic)
  emit("binary", name, "stats", "", "mcnemar_test_p_value", mc$p.value)
  discordant <- tab[1, 2] + tab[2, 1]
  emit("binary", name, "stats", "", "binom_test_p_value",
       if (discordant > 0) binom.test(tab[1, 2], discordant, 0.5)$p.value else NA)
}

for (name in unique(multi$dataset)) {
  d <- multi[multi$dataset == name, ]
  p <- as.matrix(d[, grep("^p[0-9]+$", names(d))])
  p <- p[, colSums(is.na(p)) == 0, drop = FALSE]
  classes <- seq_len(ncol(p)) - 1
  colnames(p) <- as.character(classes)
  # Hand & Till's M: column i scores class i against class j, so class i
  # (pROC's controls in compute.pair.AUC) should score higher: direction ">"
  mc <- multiclass.roc(factor(d$y, levels = classes), p, direction = ">")
  emit("multiclass", name, "pROC", "", "multiclass_auc", mc$auc)
  tab <- table_of(d$y, d$pred, classes)
  k_lin <- Kappa(tab, weights = "Equal-Spacing")
  k_quad <- Kappa(tab, weights = "Fleiss-Cohen")
  emit("multiclass", name, "vcd", "", "kappa", k_lin$Unweighted[["value"]])
  emit("multiclass", name, "vcd", "", "kappa_ase", k_lin$Unweighted[["ASE"]])
  emit("multiclass", name, "vcd", "", "kappa_equal_spacing", k_lin$Weighted[["value"]])
  emit("multiclass", name, "vcd", "", "kappa_fleiss_cohen", k_quad$Weighted[["value"]])
  ck <- suppressWarnings(cohen.kappa(tab))  # default weights: quadratic
  nc <- length(classes)
  linear <- 1 - abs(outer(classes, classes, "-")) / (nc - 1)
  ck_lin <- suppressWarnings(cohen.kappa(tab, w = linear))
  emit("multiclass", name, "psych", "", "kappa", ck$kappa)
  emit("multiclass", name, "psych", "", "var_kappa", ck$var.kappa)
  emit("multiclass", name, "psych", "", "weighted_kappa_quadratic", ck$weighted.kappa)
  emit("multiclass", name, "psych", "", "weighted_kappa_linear", ck_lin$weighted.kappa)
}

versions <- c(R = paste(R.version$major, R.version$minor, sep = "."),
              pROC = as.character(packageVersion("pROC")),
              vcd = as.character(packageVersion("vcd")),
              psych = as.character(packageVersion("psych")),
              stats = as.character(packageVersion("stats")))
out <- do.call(rbind, rows)
out <- rbind(out, data.frame(kind = "version", dataset = "", tool = names(versions),
                             scorer = "", quantity = "", value = versions,
                             stringsAsFactors = FALSE))
write.csv(out, out_path, row.names = FALSE, quote = TRUE)
